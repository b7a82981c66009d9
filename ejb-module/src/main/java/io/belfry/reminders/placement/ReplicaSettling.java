package io.belfry.reminders.placement;

import io.belfry.reminders.store.VersionMerge;
import java.util.Map;
import java.util.Objects;
import org.infinispan.Cache;
import org.infinispan.conflict.ConflictManager;
import org.infinispan.conflict.ConflictManagerFactory;
import org.infinispan.container.entries.InternalCacheValue;
import org.infinispan.context.Flag;
import org.infinispan.encoding.DataConversion;
import org.infinispan.remoting.transport.Address;
import org.jboss.logging.Logger;

/**
 * Brings the replicas of one key to the winner of {@link VersionMerge}, with writes conditional on
 * what the key's primary owner holds (a conditional write is decided by the primary): a set, cancel
 * or fire committed since the replicas were read is never undone, and writing back the current
 * value brings the lagging replicas in line. Used after partitions merge ({@link ConflictRepair})
 * and for the keys written while a member joined ({@link JoinWrites}).
 */
final class ReplicaSettling {

  private static final Logger LOG = Logger.getLogger(ConflictRepair.class);
  private static final int SETTLE_ATTEMPTS = 20;

  private final Cache<String, String> cache;
  private final DataConversion keys;
  private final DataConversion values;

  ReplicaSettling(Cache<String, String> cache) {
    this.cache = cache;
    this.keys = cache.getAdvancedCache().getKeyDataConversion();
    this.values = cache.getAdvancedCache().getValueDataConversion();
  }

  /**
   * Runs {@code work} with the deployment's class loader as the thread's context class loader. The
   * passes run on the server's executor, handed from an Infinispan notification thread, which
   * carries no deployment: there the cache marshals keys and values without the deployment's
   * marshalling context, so that {@code get} found nothing and every value read back from a replica
   * was its marshalled bytes, and no settling write ever matched (seen on WildFly).
   */
  static void inDeployment(Runnable work) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(ReplicaSettling.class.getClassLoader());
    try {
      work.run();
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  ConflictManager<String, String> conflicts() {
    return ConflictManagerFactory.get(cache.getAdvancedCache());
  }

  /**
   * Reads every replica of {@code key} and, if they differ, settles them on the winner; if they
   * agree, writes their value back to all of them. Returns whether they differed. Throws if a
   * replica cannot be read (a view changed under it).
   *
   * <p>Why write back a value every replica already holds: Infinispan 16.0.5 writes a
   * state-transfer chunk's entry to a joiner's private store even when it discards that entry in
   * memory because a newer write already reached the key ({@code DistCacheWriterInterceptor} stores
   * what the command carried; {@code CommitManager} decides for memory only). The joiner then holds
   * the newer value in memory, where replicas are read and compared, and the older one in its file
   * store, which it serves once the entry leaves memory (evicted under a memory bound, or at its
   * next restart): a rejoin run saw a key still older on the restarted node 31 s after its writers
   * stopped, with 200 entries in memory. Writing the value back puts it in every store. Listeners
   * are not told: the value they saw has not changed.
   */
  boolean settleOrRewrite(String key) {
    Object storageKey = keys.toStorage(key);
    ConflictManager<String, String> conflicts = conflicts();
    String winner = null;
    String first = null;
    boolean seen = false;
    boolean differing = false;
    for (InternalCacheValue<?> replica : versionsOf(conflicts, storageKey).values()) {
      String value = valueOf(replica);
      if (!seen) {
        first = value;
        seen = true;
      } else if (!Objects.equals(first, value)) {
        differing = true;
      }
      if (value != null && (winner == null || VersionMerge.beats(key, value, winner))) {
        winner = value;
      }
    }
    if (winner == null) {
      // absent everywhere: nothing to write back (Belfry removes only purged tombstones, so what a
      // joiner's store may have kept of the key is a tombstone)
      return false;
    }
    if (!differing) {
      // a key changed since it was read reached every store with that change
      cache
          .getAdvancedCache()
          .withFlags(Flag.SKIP_LISTENER_NOTIFICATION)
          .replace(key, winner, winner);
      return false;
    }
    settle(conflicts, storageKey, key, winner);
    return true;
  }

  /**
   * Writes {@code winner} to every replica of {@code key} (given also in its storage form) unless
   * what the key's primary owner holds now beats it.
   */
  void settle(
      ConflictManager<String, String> conflicts, Object storageKey, String key, String winner) {
    for (int attempt = 0; attempt < SETTLE_ATTEMPTS; attempt++) {
      Address primary =
          cache
              .getAdvancedCache()
              .getDistributionManager()
              .getCacheTopology()
              .getDistribution(storageKey)
              .primary();
      String current = valueOf(versionsOf(conflicts, storageKey).get(primary));
      if (current == null) {
        if (cache.putIfAbsent(key, winner) == null) {
          return;
        }
        continue;
      }
      String kept = VersionMerge.beats(key, winner, current) ? winner : current;
      if (cache.replace(key, current, kept)) {
        return;
      }
    }
    LOG.warnf("BELFRY-0023 Replicas of %s not reconciled: it kept changing", key);
  }

  private String valueOf(InternalCacheValue<?> held) {
    return held == null || held.getValue() == null
        ? null
        : (String) values.fromStorage(held.getValue());
  }

  /** Every replica's value of a key given in its storage form, as conflict resolution reads it. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Map<Address, InternalCacheValue<?>> versionsOf(
      ConflictManager<String, String> conflicts, Object storageKey) {
    return (Map) ((ConflictManager) conflicts).getAllVersions(storageKey);
  }
}
