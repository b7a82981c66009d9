package io.belfry.reminders.fire;

import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.placement.Ownership;
import io.belfry.reminders.schedule.TimeIndex;
import io.belfry.reminders.store.ReminderStore;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * The {@link TimeIndex} of the pending reminders this node owns (primary segments) and serves
 * (namespaces), with the segments it was armed for. The index maps id → (version, due) and holds
 * hints only: a run validates each against the store before it fires.
 *
 * <p>On a topology change the owned segments now are compared with those armed: lost segments are
 * dropped from the index (one O(n) pass), gained ones are read from the local replica and armed.
 *
 * <p><b>Fires in flight.</b> A run takes its hints off the index before it commits them, so while a
 * commit is undecided the index does not hold its hint, and the replica may still show the version
 * it replaces. Whatever reads the replica meanwhile (the sweep, a recovery step, gained segments)
 * would arm that version again, and the next run would issue a second conditional replace of it
 * while the first is under way. The conditional replace should let only one win, but Infinispan
 * does not promise that in a non-transactional cache while the topology changes (ISPN-3422: a
 * command retried after a topology change matches the expected value or the new one), and CI once
 * saw one version fired twice on one node 50 ms apart while the owner's death moved segments. So
 * the index remembers the versions in flight ({@link #takeOff}) and arms none of them again until
 * the run that took it has settled ({@link #land}); a newer version of the same key is armed as
 * usual.
 *
 * <p>Not thread-safe: used only under the scheduler's lock.
 */
final class OwnedIndex {

  // The scheduler's log category, as before these classes were split out of it.
  private static final Logger LOG = Logger.getLogger(Scheduler.class);

  private final ReminderStore store;
  private final Ownership ownership;
  private final Predicate<String> served;
  private final TimeIndex hints = new TimeIndex();
  private BitSet owned = new BitSet();

  /** Cache key → version of each hint a run has taken off to commit and not yet settled. */
  private final Map<String, Long> inFlight = new HashMap<>();

  OwnedIndex(ReminderStore store, Ownership ownership, Predicate<String> served) {
    this.store = store;
    this.ownership = ownership;
    this.served = served;
  }

  /** The hints themselves, for the run that fires them and the sweep that checks them. */
  TimeIndex hints() {
    return hints;
  }

  /** The primary segments the index is armed for. */
  BitSet owned() {
    return owned;
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

  /** Takes the hints due at {@code now} off the index, at most {@code limit}, as in flight. */
  List<TimeIndex.Entry> takeOff(long now, int limit) {
    List<TimeIndex.Entry> taken = hints.pollDue(now, limit);
    for (TimeIndex.Entry hint : taken) {
      inFlight.put(hint.cacheKey(), hint.version());
    }
    return taken;
  }

  /** The commit of {@code hint} is decided and settled: its version may be armed again. */
  void land(TimeIndex.Entry hint) {
    inFlight.remove(hint.cacheKey(), hint.version());
  }

  /** Forgets every hint and segment; the store keeps everything. */
  void clear() {
    inFlight.clear();
    hints.clear();
    owned = new BitSet();
  }

  /** Whether the topology installed now names other primary segments than those armed. */
  boolean ownershipChanged() {
    return !ownership.primarySegments().equals(owned);
  }

  void applyTopology() {
    BitSet now = ownership.primarySegments();
    BitSet lost = (BitSet) owned.clone();
    lost.andNot(now);
    BitSet gained = (BitSet) now.clone();
    gained.andNot(owned);
    owned = now;
    if (!lost.isEmpty()) {
      hints.removeIf(key -> lost.get(ownership.segmentOf(key)));
    }
    if (!gained.isEmpty()) {
      store.forEachLocal(gained, this::arm);
    }
    LOG.debugf(
        "BELFRY-0304 Topology changed: %d segments gained, %d lost, %d owned",
        gained.cardinality(), lost.cardinality(), now.cardinality());
  }

  /** {@link #arm} if the entry's segment is owned; returns whether it was armed. */
  boolean armIfOwned(String cacheKey, byte[] encoded) {
    return owns(cacheKey) && arm(cacheKey, encoded);
  }

  /** {@link #armIfOwned(String, byte[])} for an entry {@link #observe observed} earlier. */
  boolean armIfOwned(Observed entry) {
    return entry != null && owns(entry.cacheKey()) && apply(entry);
  }

  /** Drops the hint of a removed entry, whatever its version. */
  void drop(String cacheKey) {
    hints.remove(cacheKey);
  }

  /** What one stored entry asks of the index, decoded; see {@link #observe}. */
  record Observed(String cacheKey, ReminderId id, long version, boolean armed, long armAtMillis) {}

  /**
   * Decodes what one stored entry asks of the index without touching the index, so any thread may
   * call it: a recovery step decodes what it read before it takes the scheduler's lock. Null for an
   * entry of a namespace not served here, or one that cannot be read (logged).
   */
  Observed observe(String key, byte[] value) {
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
        key, id.get(), record.version(), record.state().isArmed(), record.armAtMillis());
  }

  private boolean arm(String key, byte[] value) {
    Observed entry = observe(key, value);
    return entry != null && apply(entry);
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
    Optional<TimeIndex.Entry> hint = hints.get(entry.cacheKey());
    // Writes to one key can reach the inbox out of order only via a sweep; never go backwards.
    if (hint.isPresent() && hint.get().version() > entry.version()) {
      return false;
    }
    if (entry.armed() && Long.valueOf(entry.version()).equals(inFlight.get(entry.cacheKey()))) {
      // its commit is under way: the run that took it puts it back if it must be tried again
      return false;
    }
    if (entry.armed()) {
      hints.put(entry.cacheKey(), entry.version(), entry.armAtMillis());
      return true;
    }
    hint.ifPresent(h -> hints.remove(entry.cacheKey()));
    return false;
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
