package io.belfry.reminders.placement;

import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.store.CacheValues;
import io.belfry.reminders.store.VersionMerge;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.infinispan.AdvancedCache;
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
public final class ReplicaSettling {

  private static final Logger LOG = Logger.getLogger(ReplicaSettling.class);
  private static final int SETTLE_ATTEMPTS = 20;

  private final Cache<String, String> cache;
  private final DataConversion keys;
  private final DataConversion values;
  private final ReplicaReads replicas;

  public ReplicaSettling(Cache<String, String> cache) {
    this.cache = cache;
    this.replicas = new ReplicaReads(cache);
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
   * are not told where the primary still holds it: the value they saw has not changed.
   */
  boolean settleOrRewrite(String key) {
    return settle(key, true);
  }

  /**
   * Reads every replica of {@code key} and, only if they differ, settles them on the winner;
   * returns whether they differed. For a caller about to write the key itself (a burial), whose own
   * write reaches every store, and for a node other than the coordinator after a rebalance:
   * replicas that agree need no write-back. Throws if a replica cannot be read.
   */
  public boolean settleIfDiffering(String key) {
    return settle(key, false);
  }

  private boolean settle(String key, boolean rewriteAgreeing) {
    Object storageKey = keys.toStorage(key);
    Map<Address, String> held = read(storageKey);
    String winner = winner(key, held.values());
    if (winner == null) {
      // absent everywhere: nothing to write back (Belfry removes only purged tombstones, so what a
      // joiner's store may have kept of the key is a tombstone)
      return false;
    }
    if (held.values().stream().distinct().count() == 1) {
      if (rewriteAgreeing) {
        // conditional on what the primary holds when the write is made, which under a memory bound
        // may be read from its store and differ from what the replicas showed a moment before
        write(storageKey, key, winner, true);
      }
      return false;
    }
    // which member held which version tells a stale joiner (one member behind) from a write that
    // reached one member only (one ahead)
    LOG.infof(
        "BELFRY-0026 Replicas of %s differed (%s); settling them on version %s",
        key, describe(key, held), describe(key, winner));
    write(storageKey, key, winner, false);
    return true;
  }

  /** Every replica's value of a key, by member (null where a member holds none). */
  private Map<Address, String> read(Object storageKey) {
    Map<Address, String> held = new HashMap<>();
    replicas.read(storageKey).forEach((member, replica) -> held.put(member, valueOf(replica)));
    return held;
  }

  /** The value that wins under the version rule among {@code values} (null if none is present). */
  private static String winner(String key, Collection<String> values) {
    String winner = null;
    for (String value : values) {
      if (value != null && (winner == null || VersionMerge.beats(key, value, winner))) {
        winner = value;
      }
    }
    return winner;
  }

  /** What each member held, as a log line names it, in the members' order. */
  private static String describe(String key, Map<Address, String> held) {
    Map<String, String> described = new TreeMap<>();
    held.forEach((member, value) -> described.put(String.valueOf(member), describe(key, value)));
    return described.toString();
  }

  /** A cache value as a log line names it: its version, and whether it is a tombstone. */
  private static String describe(String key, String value) {
    if (value == null) {
      return "absent";
    }
    try {
      ReminderRecord record =
          ReminderCodec.decode(ReminderId.fromCacheKey(key), CacheValues.fromCache(value));
      return record.version() + (record.isTombstone() ? " " + record.state() : "");
    } catch (RuntimeException e) {
      return "undecodable";
    }
  }

  /**
   * Writes {@code winner} to every replica of {@code key} (given also in its storage form) unless
   * what the key's primary owner holds now beats it.
   */
  void settle(Object storageKey, String key, String winner) {
    write(storageKey, key, winner, false);
  }

  /**
   * {@link #settle}, and with {@code quietWhereUnchanged} listeners are not told when the primary
   * already holds what is written (a write-back of a value every replica showed).
   */
  private void write(Object storageKey, String key, String winner, boolean quietWhereUnchanged) {
    for (int attempt = 0; attempt < SETTLE_ATTEMPTS; attempt++) {
      Address primary =
          cache
              .getAdvancedCache()
              .getDistributionManager()
              .getCacheTopology()
              .getDistribution(storageKey)
              .primary();
      String current = valueOf(replicas.read(storageKey).get(primary));
      if (current == null) {
        if (cache.putIfAbsent(key, winner) == null) {
          return;
        }
        continue;
      }
      String kept = VersionMerge.beats(key, winner, current) ? winner : current;
      AdvancedCache<String, String> writer =
          quietWhereUnchanged && kept.equals(current)
              ? cache.getAdvancedCache().withFlags(Flag.SKIP_LISTENER_NOTIFICATION)
              : cache.getAdvancedCache();
      if (writer.replace(key, current, kept)) {
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
}
