package io.belfry.reminders.fire;

import io.belfry.reminders.schedule.TimeIndex;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;

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
 * <p>One small {@link TimeIndex} per segment, so that a gained segment is handed over without
 * computing the segment of any key (on WildFly that marshals the key).
 *
 * <p>Not thread-safe: used only under the scheduler's lock.
 */
final class StandbyHints {

  /** Segments read per fill step, as a recovery step. */
  static final int SEGMENTS_PER_STEP = Recovery.SEGMENTS_PER_STEP;

  private final boolean enabled;
  private TimeIndex[] bySegment = new TimeIndex[0];
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
    int size = 0;
    for (TimeIndex segment : bySegment) {
      size += segment == null ? 0 : segment.size();
    }
    return size;
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
    TimeIndex hints = segment(segment);
    Optional<TimeIndex.Entry> hint = hints.get(entry.cacheKey());
    if (hint.isPresent() && hint.get().version() > entry.version()) {
      return;
    }
    if (entry.armed()) {
      hints.put(entry.cacheKey(), entry.version(), entry.armAtMillis());
    } else if (hint.isPresent()) {
      hints.remove(entry.cacheKey());
    }
  }

  /** Drops the hint of a removed entry, whatever its version. */
  void drop(int segment, String cacheKey) {
    TimeIndex hints = segment < bySegment.length ? bySegment[segment] : null;
    if (hints != null) {
      hints.remove(cacheKey);
    }
  }

  /** Keeps a hint of a segment this node just lost; see {@link #coverLost}. */
  void keep(int segment, TimeIndex.Entry hint) {
    if (enabled) {
      segment(segment).put(hint.cacheKey(), hint.version(), hint.dueMillis());
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
   * Hands the hints of the gained segments that are covered to {@code owned} (tagged with their
   * segment; a hint the owned index holds at the same or a newer version stays as it is) and
   * forgets them here; returns the gained segments it could not provide, which the caller reads
   * from the store. O(n) in the hints handed over and those owned, with no per-key work but a hash
   * lookup.
   */
  BitSet handOver(BitSet gained, TimeIndex owned) {
    BitSet toRead = (BitSet) gained.clone();
    List<TimeIndex.Entry> handed = new ArrayList<>();
    for (int s = gained.nextSetBit(0); s >= 0; s = gained.nextSetBit(s + 1)) {
      TimeIndex hints = s < bySegment.length ? bySegment[s] : null;
      if (covered.get(s)) {
        if (hints != null) {
          for (TimeIndex.Entry hint : hints.entries()) {
            handed.add(new TimeIndex.Entry(hint.cacheKey(), hint.version(), hint.dueMillis(), s));
          }
        }
        toRead.clear(s);
      }
      if (hints != null) {
        bySegment[s] = null;
      }
    }
    covered.andNot(gained);
    filling.andNot(gained);
    if (!handed.isEmpty()) {
      owned.putAllNewer(handed);
    }
    return toRead;
  }

  /** Forgets every hint: this node is receiving state, or stopping. */
  void invalidate() {
    epoch++;
    covered.clear();
    filling.clear();
    bySegment = new TimeIndex[0];
  }

  /** The segments of one fill step, read without the lock, applied under it. */
  record FillStep(int epoch, BitSet segments) {}

  /**
   * The next up to {@value #SEGMENTS_PER_STEP} segments neither owned nor covered nor being read,
   * marked as being read (their writes are applied from now on); null when there are none.
   */
  FillStep nextFillStep(BitSet owned, int segmentCount) {
    if (!enabled) {
      return null;
    }
    BitSet step = new BitSet();
    for (int s = 0, n = 0; s < segmentCount && n < SEGMENTS_PER_STEP; s++) {
      if (!owned.get(s) && !covered.get(s) && !filling.get(s)) {
        step.set(s);
        n++;
      }
    }
    if (step.isEmpty()) {
      return null;
    }
    filling.or(step);
    return new FillStep(epoch, step);
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

  private TimeIndex segment(int segment) {
    if (segment >= bySegment.length) {
      bySegment = java.util.Arrays.copyOf(bySegment, segment + 1);
    }
    TimeIndex hints = bySegment[segment];
    if (hints == null) {
      hints = new TimeIndex();
      bySegment[segment] = hints;
    }
    return hints;
  }
}
