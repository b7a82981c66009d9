package io.belfry.reminders.fire;

import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.placement.Ownership;
import io.belfry.reminders.schedule.TimeIndex;
import io.belfry.reminders.store.ReminderStore;
import java.util.BitSet;
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

  /** Forgets every hint and segment; the store keeps everything. */
  void clear() {
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
