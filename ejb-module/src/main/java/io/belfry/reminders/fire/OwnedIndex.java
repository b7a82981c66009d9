package io.belfry.reminders.fire;

import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.placement.Ownership;
import io.belfry.reminders.schedule.SegmentedTimeIndex;
import io.belfry.reminders.schedule.TimeIndex;
import io.belfry.reminders.store.ReminderStore;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.jboss.logging.Logger;

/**
 * The {@link SegmentedTimeIndex} of the pending reminders this node owns (primary segments) and
 * serves (namespaces), with the segments it was armed for. The index maps id → (version, due) and
 * holds hints only: a run validates each against the store before it fires.
 *
 * <p>On a topology change the owned segments now are compared with those armed: the hints of lost
 * segments move to the {@link StandbyHints} a segment's index at a time, gained ones are taken from
 * there the same way when it covers them, and read from the local replica and armed otherwise.
 *
 * <p>Not thread-safe: used only under the scheduler's lock.
 */
final class OwnedIndex {

  // The scheduler's log category, as before these classes were split out of it.
  private static final Logger LOG = Logger.getLogger(Scheduler.class);

  private final ReminderStore store;
  private final Ownership ownership;
  private final Predicate<String> served;
  private final SegmentedTimeIndex hints = new SegmentedTimeIndex();
  private final StandbyHints standby;
  private BitSet owned = new BitSet();
  private long segmentsGainedFromStore;
  // an equal key String kept elsewhere (the key index's), for keys read from the store; volatile:
  // store reads run without the lock
  private volatile UnaryOperator<String> keptKeys = UnaryOperator.identity();

  OwnedIndex(
      ReminderStore store, Ownership ownership, Predicate<String> served, boolean standbyHints) {
    this.store = store;
    this.ownership = ownership;
    this.served = served;
    this.standby = new StandbyHints(standbyHints);
  }

  /** The hints of the segments not owned, for the fill steps that read them. */
  StandbyHints standby() {
    return standby;
  }

  /** The hints themselves, for the run that fires them and the sweep that checks them. */
  SegmentedTimeIndex hints() {
    return hints;
  }

  /**
   * Replaces {@code keys[i]} (of segment {@code segments[i]}, for each {@code i < count}) by the
   * equal String an owned or standby hint keeps, where one does; see {@link
   * Scheduler#shareHeldKeys}. Returns how many it replaced.
   */
  int shareHeldKeys(String[] keys, int[] segments, int count) {
    int shared = 0;
    for (int i = 0; i < count; i++) {
      String held = hints.heldKey(keys[i], segments[i]);
      if (held == null) {
        held = standby.heldKey(keys[i], segments[i]);
      }
      if (held != null && held != keys[i]) {
        keys[i] = held;
        shared++;
      }
    }
    return shared;
  }

  /**
   * Each segment's earliest due time over the owned and the standby hints ({@code Long.MAX_VALUE}
   * where neither holds one): the order of the next start's recovery ({@link RecoveryOrder}).
   */
  long[] earliestDueBySegment() {
    long[] due = new long[segmentCount()];
    for (int s = 0; s < due.length; s++) {
      due[s] = Math.min(hints.headDueMillis(s), standby.headDueMillis(s));
    }
    return due;
  }

  /** The primary segments the index is armed for. */
  BitSet owned() {
    return owned;
  }

  /** How many gained segments were read from the store since this index was made; for tests. */
  long segmentsGainedFromStore() {
    return segmentsGainedFromStore;
  }

  /** How many segments the cache has. */
  int segmentCount() {
    return ownership.segmentCount();
  }

  boolean owns(String cacheKey) {
    return owned.get(ownership.segmentOf(cacheKey));
  }

  boolean serves(ReminderId id) {
    return served.test(id.namespace());
  }

  /** Takes the primary segments installed now as owned, without reading them; at start. */
  void takeOwnership() {
    owned = ownership.primarySegments();
  }

  /** Forgets every hint and segment; the store keeps everything. */
  void clear() {
    hints.clear();
    standby.invalidate();
    owned = new BitSet();
  }

  /**
   * This node is receiving state: its store takes entries its change feed does not see, so the
   * standby hints are forgotten until they are read again.
   */
  void receivingState() {
    standby.invalidate();
  }

  /** Whether the topology installed now names other primary segments than those armed. */
  boolean ownershipChanged() {
    return !ownership.primarySegments().equals(owned);
  }

  /**
   * Moves the index to the primary segments installed now. Logged at INFO when segments moved: how
   * many came from the standby hints, how many were read from the store, and how long it took.
   */
  void applyTopology() {
    long startNanos = System.nanoTime();
    BitSet now = ownership.primarySegments();
    BitSet lost = (BitSet) owned.clone();
    lost.andNot(now);
    BitSet gained = (BitSet) now.clone();
    gained.andNot(owned);
    owned = now;
    if (lost.isEmpty() && gained.isEmpty()) {
      return;
    }
    if (!lost.isEmpty()) {
      for (int s = lost.nextSetBit(0); s >= 0; s = lost.nextSetBit(s + 1)) {
        standby.keep(s, hints.detach(s));
      }
      standby.coverLost(lost);
    }
    BitSet toRead = gained;
    if (!gained.isEmpty()) {
      toRead = standby.handOver(gained, hints);
      if (!toRead.isEmpty()) {
        forEachObserved(toRead, this::apply);
        segmentsGainedFromStore += toRead.cardinality();
      }
    }
    LOG.infof(
        "BELFRY-0304 Topology changed: %d segments gained (%d of them read from the store), %d"
            + " lost, %d owned, %d armed; %d ms",
        gained.cardinality(),
        toRead.cardinality(),
        lost.cardinality(),
        now.cardinality(),
        hints.size(),
        (System.nanoTime() - startNanos) / 1_000_000);
  }

  /**
   * {@link #arm} if the entry's segment is owned, and keeps it among the standby hints if that
   * segment is tracked there; returns whether it was armed.
   */
  boolean armIfOwned(String cacheKey, byte[] encoded) {
    int segment = ownership.segmentOf(cacheKey);
    if (owned.get(segment)) {
      Observed entry = observe(cacheKey, encoded, segment);
      return entry != null && apply(entry);
    }
    if (standby.tracks(segment)) {
      Observed entry = observe(cacheKey, encoded, segment);
      if (entry != null) {
        standby.apply(segment, entry);
      }
    }
    return false;
  }

  /** {@link #armIfOwned(String, byte[])} for an entry {@link #observe observed} earlier. */
  boolean armIfOwned(Observed entry) {
    return entry != null && owns(entry.cacheKey()) && apply(entry);
  }

  /**
   * Arms {@code hint} again unless its version or a newer one of its key is armed: in the index if
   * its segment is owned, among the standby hints if that segment is tracked there, nowhere
   * otherwise (its owner has it).
   */
  void armNewer(TimeIndex.Entry hint) {
    int segment = segmentOf(hint.cacheKey(), hint.tag());
    if (owned.get(segment)) {
      hints.putIfNewer(hint.cacheKey(), hint.version(), hint.dueMillis(), segment);
    } else if (standby.tracks(segment)) {
      standby.apply(
          segment,
          new Observed(
              hint.cacheKey(), hint.id(), hint.version(), true, hint.dueMillis(), segment));
    }
  }

  /** The segment of a hint: its tag, or computed from the key when it has none. */
  private int segmentOf(String cacheKey, int tag) {
    return tag != TimeIndex.UNTAGGED ? tag : ownership.segmentOf(cacheKey);
  }

  /** Drops the hint of a removed entry, whatever its version. */
  void drop(String cacheKey) {
    int segment = ownership.segmentOf(cacheKey);
    if (!hints.remove(cacheKey, segment) && standby.enabled()) {
      standby.drop(segment, cacheKey);
    }
  }

  /**
   * What one stored entry asks of the index, decoded; see {@link #observe}. {@code segment} is the
   * key's, or {@link TimeIndex#UNTAGGED} if the reader did not know it.
   */
  record Observed(
      String cacheKey, ReminderId id, long version, boolean armed, long armAtMillis, int segment) {}

  /**
   * Decodes what one stored entry asks of the index without touching the index, so any thread may
   * call it: a recovery step decodes what it read before it takes the scheduler's lock. Null for an
   * entry of a namespace not served here, or one that cannot be read (logged).
   */
  Observed observe(String key, byte[] value, int segment) {
    Optional<ReminderId> id = idOf(key);
    if (id.isEmpty() || !served.test(id.get().namespace())) {
      return null;
    }
    ReminderRecord record;
    try {
      record = ReminderCodec.decode(id.get(), value);
    } catch (RuntimeException e) {
      LOG.errorf(e, "BELFRY-0305 Unreadable reminder %s will not fire", key);
      return null;
    }
    return new Observed(
        key, id.get(), record.version(), record.state().isArmed(), record.armAtMillis(), segment);
  }

  /**
   * Brings the index in line with one stored entry of an owned segment: an armed version (pending,
   * or a delivery's lease) of a served namespace is armed unless the index already has a newer one;
   * a tombstone or dead letter drops the hint of its version or an older one. Returns whether the
   * entry was armed. An entry read before a newer write was applied is thus never armed over it;
   * one read before its own tombstone was applied may be armed again, and its run finds it stale.
   * The change feed, recovery and the sweep all go through here.
   */
  boolean apply(Observed entry) {
    return applyTo(hints, segmentOf(entry.cacheKey(), entry.segment()), entry);
  }

  /**
   * {@link #apply} to {@code hints}, for an entry of {@code segment}: the owned hints, or the
   * standby hints of a tracked segment.
   */
  static boolean applyTo(SegmentedTimeIndex hints, int segment, Observed entry) {
    Optional<TimeIndex.Entry> hint = hints.get(entry.cacheKey(), segment);
    // Writes to one key can reach the inbox out of order only via a sweep; never go backwards.
    if (hint.isPresent() && hint.get().version() > entry.version()) {
      return false;
    }
    if (entry.armed()) {
      hints.put(entry.cacheKey(), entry.version(), entry.armAtMillis(), segment);
      return true;
    }
    hint.ifPresent(h -> hints.remove(entry.cacheKey(), segment));
    return false;
  }

  /**
   * Reads {@code segments} from the local replica one by one and {@link #observe observes} each
   * entry: a list per segment, in segment order. Touches nothing of the index, so any thread may
   * call it.
   */
  List<List<Observed>> readSegments(BitSet segments) {
    List<List<Observed>> found = new ArrayList<>();
    for (int s = segments.nextSetBit(0); s >= 0; s = segments.nextSetBit(s + 1)) {
      List<Observed> entries = new ArrayList<>();
      BitSet one = new BitSet();
      one.set(s);
      forEachObserved(one, entries::add);
      found.add(entries);
    }
    return found;
  }

  /**
   * Where keys read from the store are swapped for an equal String kept elsewhere: the key index's,
   * so that a hint armed from a read after the index's own does not hold a second copy.
   */
  void keepKeysOf(UnaryOperator<String> kept) {
    keptKeys = kept;
  }

  /** A key read from the store, as {@link #keepKeysOf} keeps it. */
  String keptKey(String read) {
    return keptKeys.apply(read);
  }

  /** Each entry of {@code segments} of the local replica, observed, segment by segment. */
  void forEachObserved(BitSet segments, Consumer<Observed> sink) {
    store.forEachLocalBySegment(
        segments,
        (segment, key, value) -> {
          Observed entry = observe(keptKey(key), value, segment);
          if (entry != null) {
            sink.accept(entry);
          }
        });
  }

  /** The id a cache key names; none for a key that is not a reminder's. */
  static Optional<ReminderId> idOf(String key) {
    try {
      return Optional.of(ReminderId.fromCacheKey(key));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
