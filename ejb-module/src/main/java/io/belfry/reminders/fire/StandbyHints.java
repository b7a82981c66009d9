package io.belfry.reminders.fire;

import io.belfry.reminders.schedule.SegmentedTimeIndex;
import io.belfry.reminders.schedule.TimeIndex;
import java.util.BitSet;
import java.util.List;

/**
 * Hints for the pending reminders of segments this node does not own, kept so that a node that
 * gains segments (an owner was killed or left) arms them from memory at once. Without them it reads
 * the gained segments from its file store before it arms anything: about 5 s for half a million
 * entries on a 2-core box, during which the dead owner's due reminders wait.
 *
 * <p>A segment's standby hints are trusted only while the segment is <em>covered</em>: since they
 * were read from the store (a {@link FillStep}) or moved here from the owned index when the segment
 * was lost, every write of it has gone through the change feed. Infinispan applies the entries a
 * joiner receives by state transfer without notifying listeners, so when this node receives state
 * every segment stops being covered ({@link #invalidate}) and is read again once the node holds the
 * whole replica. A gained segment that is not covered is read from the store, as without standby
 * hints. Hints are hints: a run validates each against the store before it fires.
 *
 * <p>Kept in a {@link SegmentedTimeIndex} like the owned hints, so that a segment moves between
 * here and the owned index whole, without a pass over its hints or computing any key's segment (on
 * WildFly that marshals the key).
 *
 * <p>Not thread-safe: used only under the scheduler's lock.
 */
final class StandbyHints {

  /** Segments read per fill step, as a recovery step. */
  static final int SEGMENTS_PER_STEP = Recovery.SEGMENTS_PER_STEP;

  private final boolean enabled;
  private final SegmentedTimeIndex hints = new SegmentedTimeIndex();
  private final BitSet covered = new BitSet();
  private final BitSet filling = new BitSet();

  /** Counts {@link #invalidate}s, so that a step read before one is not applied after it. */
  private int epoch;

  StandbyHints(boolean enabled) {
    this.enabled = enabled;
  }

  boolean enabled() {
    return enabled;
  }

  /** Whether writes of {@code segment} are applied here: covered, or being read by a step. */
  boolean tracks(int segment) {
    return covered.get(segment) || filling.get(segment);
  }

  /** How many standby hints are held; for health and tests. */
  int size() {
    return hints.size();
  }

  /** The segments whose standby hints are complete. */
  BitSet covered() {
    return (BitSet) covered.clone();
  }

  /**
   * Applies an entry of a tracked segment, as {@link OwnedIndex#apply} does to owned hints: an
   * armed version is kept unless a newer one is, anything else drops the hint of its version or an
   * older one.
   */
  void apply(int segment, OwnedIndex.Observed entry) {
    OwnedIndex.applyTo(hints, segment, entry);
  }

  /** The earliest due time of {@code segment}'s hints, or {@code Long.MAX_VALUE}. */
  long headDueMillis(int segment) {
    return hints.headDueMillis(segment);
  }

  /** The String instance a hint of {@code segment} keeps for {@code cacheKey}, or {@code null}. */
  String heldKey(String cacheKey, int segment) {
    return hints.heldKey(cacheKey, segment);
  }

  /** Drops the hint of a removed entry, whatever its version. */
  void drop(int segment, String cacheKey) {
    hints.remove(cacheKey, segment);
  }

  /**
   * Keeps the hints of a segment this node just lost (null: it had none), taking the index as it
   * is; see {@link #coverLost}.
   */
  void keep(int segment, TimeIndex lost) {
    if (enabled) {
      hints.attachNewer(segment, lost);
    }
  }

  /** The lost segments' hints were all {@link #keep kept}: their writes are applied from now on. */
  void coverLost(BitSet lost) {
    if (enabled) {
      covered.or(lost);
      filling.andNot(lost);
    }
  }

  /**
   * Hands the hints of the gained segments that are covered to {@code owned}, a whole segment's
   * index at a time (a hint the owned index holds at the same or a newer version stays as it is),
   * and forgets them here; returns the gained segments it could not provide, which the caller reads
   * from the store. O(log s) per segment when the owned index holds nothing of it, as on a
   * hand-over: no per-hint work.
   */
  BitSet handOver(BitSet gained, SegmentedTimeIndex owned) {
    BitSet toRead = (BitSet) gained.clone();
    for (int s = gained.nextSetBit(0); s >= 0; s = gained.nextSetBit(s + 1)) {
      TimeIndex segment = hints.detach(s);
      if (covered.get(s)) {
        owned.attachNewer(s, segment);
        toRead.clear(s);
      }
    }
    covered.andNot(gained);
    filling.andNot(gained);
    return toRead;
  }

  /** Forgets every hint: this node is receiving state, or stopping. */
  void invalidate() {
    epoch++;
    covered.clear();
    filling.clear();
    hints.clear();
  }

  /** The segments of one fill step, read without the lock, applied under it. */
  record FillStep(int epoch, BitSet segments) {}

  /**
   * The next up to {@value #SEGMENTS_PER_STEP} segments neither owned nor covered nor being read,
   * those of {@code first} before the others, marked as being read (their writes are applied from
   * now on); null when there are none.
   */
  FillStep nextFillStep(BitSet owned, int segmentCount, BitSet first) {
    if (!enabled) {
      return null;
    }
    BitSet step = new BitSet();
    addUnread(first, owned, step);
    BitSet all = new BitSet();
    all.set(0, segmentCount);
    addUnread(all, owned, step);
    if (step.isEmpty()) {
      return null;
    }
    filling.or(step);
    return new FillStep(epoch, step);
  }

  private void addUnread(BitSet candidates, BitSet owned, BitSet step) {
    for (int s = candidates.nextSetBit(0);
        s >= 0 && step.cardinality() < SEGMENTS_PER_STEP;
        s = candidates.nextSetBit(s + 1)) {
      if (!owned.get(s) && !covered.get(s) && !filling.get(s)) {
        step.set(s);
      }
    }
  }

  /** Whether every one of {@code segments} is covered. */
  boolean covers(BitSet segments) {
    BitSet missing = (BitSet) segments.clone();
    missing.andNot(covered);
    return missing.isEmpty();
  }

  /**
   * Whether some segment is neither owned nor covered nor being read: a fill step would read it.
   */
  boolean needsFill(BitSet owned, int segmentCount) {
    if (!enabled) {
      return false;
    }
    BitSet known = (BitSet) owned.clone();
    known.or(covered);
    known.or(filling);
    return known.nextClearBit(0) < segmentCount;
  }

  /**
   * Applies what a step read, segment by segment ({@code found.get(i)} for the i-th segment of the
   * step), and marks its segments covered. Never replaces a newer hint applied meanwhile from the
   * change feed; does nothing for a segment gained meanwhile (it was read from the store) or for a
   * step read before an {@link #invalidate}.
   */
  void fill(FillStep step, List<List<OwnedIndex.Observed>> found) {
    if (step.epoch() != epoch) {
      return;
    }
    int i = 0;
    for (int s = step.segments().nextSetBit(0); s >= 0; s = step.segments().nextSetBit(s + 1)) {
      List<OwnedIndex.Observed> entries = found.get(i++);
      if (!filling.get(s)) {
        continue;
      }
      for (OwnedIndex.Observed entry : entries) {
        apply(s, entry);
      }
      filling.clear(s);
      covered.set(s);
    }
  }

  /** Gives a step's segments back unread, e.g. when its read failed. */
  void abandon(FillStep step) {
    if (step.epoch() == epoch) {
      filling.andNot(step.segments());
    }
  }
}
