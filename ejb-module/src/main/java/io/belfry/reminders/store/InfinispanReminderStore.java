package io.belfry.reminders.store;

import io.belfry.cachefunctions.ConditionalWrites.Outcome;
import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.CacheStream;
import org.infinispan.commons.CacheException;
import org.infinispan.commons.IllegalLifecycleStateException;
import org.infinispan.commons.TimeoutException;
import org.infinispan.commons.util.IntSets;
import org.infinispan.configuration.cache.Configuration;
import org.infinispan.configuration.cache.MemoryConfiguration;
import org.infinispan.configuration.cache.StoreConfiguration;
import org.infinispan.context.Flag;
import org.infinispan.distribution.DistributionManager;
import org.infinispan.partitionhandling.AvailabilityException;
import org.infinispan.partitionhandling.AvailabilityMode;
import org.infinispan.remoting.transport.jgroups.SuspectException;
import org.infinispan.topology.CacheTopology;
import org.jboss.logging.Logger;

/**
 * The {@link ReminderStore} on the replicated {@code reminders} cache: String keys ({@link
 * ReminderId#cacheKey()}), String values ({@link ReminderCodec} bytes in the form of {@link
 * CacheValues}).
 *
 * <p>Single keys are written with putIfAbsent, replace(old, new) and remove(old), which compare
 * String values by content on the primary owner; the writes of a group ({@link #writeTogether})
 * with one functional command of Belfry's own function ({@link GroupedWrites}), which the
 * PROTOSTREAM marshaller carries when the cache container names its module. The cache is configured
 * synchronous, so each write has reached every replica (and its store) when the call returns.
 */
public final class InfinispanReminderStore implements ReminderStore {

  private static final Logger LOG = Logger.getLogger(InfinispanReminderStore.class);

  /** The memory bound that means none: {@code belfry.cache.memory-entries}' default. */
  public static final long UNBOUNDED = Long.MAX_VALUE;

  /**
   * How long after a topology change the replicas of any key may still differ: a joiner was seen to
   * miss about one in six of the writes made during its state transfer (the fires' tombstones above
   * all), and the settling of those keys (JoinWrites) took up to 55 s for 1,379 keys under a chaos
   * run's load, during which the joiner, as primary owner, answered a cancel of a version that had
   * fired 47 s before as if it were still live (ChaosClusterIT, 2026-11-28).
   */
  static final long AFTER_TOPOLOGY_CHANGE = TimeUnit.SECONDS.toNanos(120);

  /** {@link #AFTER_TOPOLOGY_CHANGE} here; shorter in tests of what follows the window. */
  private final long afterTopologyChange;

  /** The topology id {@link #replicasMayDiffer} saw last, and when it saw it change. */
  private volatile int topologySeen = -1;

  private volatile long topologyChangedNanos;

  /** What availability is asked of. */
  private final Cache<String, String> cache;

  /**
   * The cache for every command. While memory holds every entry (the store is preloaded and nothing
   * is evicted) a miss in memory is a miss in the store too, so commands skip the store's lookup:
   * without that, each command on a key absent from memory (every new reminder's get and
   * putIfAbsent, on the node that sets it and on each replica) looked the key up in the Soft-Index
   * file store's on-disk index first, and on three WildFly nodes that lookup and the store's reads
   * were the largest share of the replicas' CPU (docs/performance/comparison.md). When the cache's
   * memory is bounded (belfry.cache.memory-entries, see docs/configuration.md) an entry may be on
   * disk only, so every command, and every scan, reads through to the store. Writes always go
   * through to the store.
   */
  private final AdvancedCache<String, String> commands;

  /** {@link #commands}, this node's replica only: for scans. */
  private final AdvancedCache<String, String> local;

  /** Whether {@link #commands} read through to the store: memory may not hold every entry. */
  private final boolean readsThrough;

  /** Settles the replicas of a cache key; see {@link #settleReplicas}. */
  private final Predicate<String> replicaSettling;

  /** Sends a thread's writes as one command per group; null where the members cannot run it. */
  private final GroupedWrites grouped;

  /** A store whose {@link #settleReplicas} has nothing to settle. */
  public InfinispanReminderStore(Cache<String, String> cache) {
    this(cache, key -> false);
  }

  /**
   * @param replicaSettling reads every replica of a cache key, settles them on the newest and
   *     answers whether they differed (placement's {@code ReplicaSettling}, which the engine wires
   *     in: the store does not depend on placement)
   */
  public InfinispanReminderStore(Cache<String, String> cache, Predicate<String> replicaSettling) {
    this(cache, replicaSettling, AFTER_TOPOLOGY_CHANGE);
  }

  /**
   * For tests: {@code afterTopologyChange} nanoseconds of {@link #replicasMayDiffer} after a
   * change.
   */
  InfinispanReminderStore(
      Cache<String, String> cache, Predicate<String> replicaSettling, long afterTopologyChange) {
    this.afterTopologyChange = afterTopologyChange;
    this.cache = Objects.requireNonNull(cache, "cache");
    this.replicaSettling = Objects.requireNonNull(replicaSettling, "replicaSettling");
    this.readsThrough = !holdsEveryEntry(cache);
    this.commands =
        readsThrough
            ? cache.getAdvancedCache()
            : cache.getAdvancedCache().withFlags(Flag.SKIP_CACHE_LOAD);
    this.local = commands.withFlags(Flag.CACHE_MODE_LOCAL);
    this.grouped = GroupedWrites.on(commands).orElse(null);
  }

  /**
   * Whether memory holds every entry of the stores: each one preloaded, and nothing evicted. A
   * bound of {@link #UNBOUNDED} entries is no bound: no store comes near it, and the WildFly
   * subsystem has no other way to say "no eviction" from an expression (its size must be at least
   * 1).
   */
  static boolean holdsEveryEntry(Cache<?, ?> cache) {
    Configuration configuration = cache.getCacheConfiguration();
    MemoryConfiguration memory = configuration.memory();
    boolean evicts =
        memory.maxSizeBytes() > 0 || (memory.maxCount() > 0 && memory.maxCount() != UNBOUNDED);
    return !evicts
        && configuration.persistence().stores().stream().allMatch(StoreConfiguration::preload);
  }

  @Override
  public boolean settleReplicas(ReminderId id) {
    if (!cache.getCacheConfiguration().clustering().cacheMode().isClustered()) {
      return false; // one replica (an embedded local cache): nothing to compare it with
    }
    try {
      return clustered(() -> replicaSettling.test(id.cacheKey()));
    } catch (CacheException e) {
      // a replica that could not be read (a member leaving, a topology moving under the read) is
      // the cluster's state, as for any command: the caller waits and tries again
      throw new StoreUnavailableException(
          "the replicas of " + id.cacheKey() + " could not be read", e);
    }
  }

  @Override
  public Optional<StoredReminder> readBack(ReminderId id) {
    if (settleReplicas(id)) {
      LOG.infof(
          "BELFRY-0007 The replicas of %s differed when a write read it back (its answer lost, its"
              + " races lost, or the topology changed lately); they were settled on the newest"
              + " version",
          id.cacheKey());
    }
    return get(id);
  }

  @Override
  public boolean readsThroughToDisk() {
    return readsThrough;
  }

  @Override
  public Optional<Path> fileBesideStore(String name) {
    return StoreFiles.beside(cache, name);
  }

  @Override
  public boolean replicasMayDiffer() {
    DistributionManager distribution = cache.getAdvancedCache().getDistributionManager();
    if (distribution == null) {
      return false; // a local cache: one replica
    }
    CacheTopology topology = distribution.getCacheTopology();
    long now = System.nanoTime();
    if (topology.getTopologyId() != topologySeen) {
      // noticed at the first write after the change, which is never earlier than the change
      topologySeen = topology.getTopologyId();
      topologyChangedNanos = now;
    }
    return topology.getPhase().isRebalance() || now - topologyChangedNanos < afterTopologyChange;
  }

  @Override
  public boolean acceptsWrites() {
    return cache.getAdvancedCache().getAvailability() == AvailabilityMode.AVAILABLE;
  }

  @Override
  public Optional<StoredReminder> get(ReminderId id) {
    return stored(id, clustered(() -> commands.get(id.cacheKey())));
  }

  @Override
  public Optional<StoredReminder> putIfAbsent(ReminderRecord record) {
    ReminderId id = record.id();
    String value = written(record);
    return stored(id, clustered(() -> commands.putIfAbsent(id.cacheKey(), value)));
  }

  @Override
  public void writeTogether(Runnable writes) {
    if (grouped == null) {
      writes.run();
    } else {
      grouped.together(writes);
    }
  }

  /**
   * The write of {@code next} over {@code expected} (null: over no entry) in this thread's open
   * group, or null when it goes on its own: no group is open, or the replicas of a key may differ
   * now. Then the primary owner must decide alone, as a {@code replace} does, and the backups copy
   * its decision: a group's function decides again on each owner, from that owner's value.
   */
  private CompletableFuture<Outcome> inGroup(ReminderId id, String expected, String next) {
    if (grouped == null || !grouped.isOpen() || replicasMayDiffer()) {
      return null;
    }
    return grouped.add(id.cacheKey(), GroupedWrites.argument(expected, next));
  }

  @Override
  public CompletionStage<Optional<StoredReminder>> putIfAbsentAsync(ReminderRecord record) {
    ReminderId id = record.id();
    String value;
    CompletableFuture<Outcome> outcome;
    try {
      value = written(record);
      outcome = inGroup(id, null, value);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(translated(e));
    }
    if (outcome != null) {
      return outcome.thenApply(
          o -> o.won() ? Optional.<StoredReminder>empty() : stored(id, o.current()));
    }
    return unblocked(() -> commands.putIfAbsentAsync(id.cacheKey(), value))
        .thenApply(previous -> stored(id, previous));
  }

  @Override
  public boolean replace(StoredReminder expected, ReminderRecord next) {
    requireSameId(expected, next);
    String oldValue = CacheValues.toCache(expected.encoded());
    String newValue = written(next);
    return clustered(() -> commands.replace(next.id().cacheKey(), oldValue, newValue));
  }

  @Override
  public CompletionStage<Boolean> replaceAsync(StoredReminder expected, ReminderRecord next) {
    String oldValue;
    String newValue;
    CompletableFuture<Outcome> outcome;
    try {
      requireSameId(expected, next);
      oldValue = CacheValues.toCache(expected.encoded());
      newValue = written(next);
      outcome = inGroup(next.id(), oldValue, newValue);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(translated(e));
    }
    if (outcome != null) {
      return outcome.thenApply(Outcome::won);
    }
    return unblocked(() -> commands.replaceAsync(next.id().cacheKey(), oldValue, newValue));
  }

  /**
   * Issues one asynchronous single-key command; its failures, thrown at once (encoding included) or
   * completed later, arrive as the stage's, translated as {@link #clustered} does.
   */
  private static <T> CompletionStage<T> unblocked(Supplier<CompletionStage<T>> command) {
    CompletionStage<T> issued;
    try {
      issued = command.get();
    } catch (RuntimeException e) {
      issued = CompletableFuture.failedFuture(e);
    }
    return issued.handle(
        (result, failure) -> {
          if (failure != null) {
            throw translated(failure);
          }
          return result;
        });
  }

  /**
   * The cache value one write of {@code record} puts: encoded with a random write stamp, so that no
   * two writes put equal values, and a conditional write Infinispan retries after a topology change
   * cannot match another node's write as if it were its own ({@link ReminderCodec#encode(
   * ReminderRecord, long)}).
   */
  private static String written(ReminderRecord record) {
    return CacheValues.toCache(
        ReminderCodec.encode(record, ThreadLocalRandom.current().nextLong()));
  }

  private static void requireSameId(StoredReminder expected, ReminderRecord next) {
    if (!expected.record().id().equals(next.id())) {
      throw new IllegalArgumentException("replace across ids: " + expected + " by " + next);
    }
  }

  @Override
  public boolean remove(StoredReminder expected) {
    String value = CacheValues.toCache(expected.encoded());
    return clustered(() -> commands.remove(expected.record().id().cacheKey(), value));
  }

  /**
   * Runs one single-key command, turning the failures that come from the cluster's state rather
   * than from the command into {@link StoreUnavailableException}, so the engine can wait them out
   * without knowing Infinispan's exception types.
   */
  private static <T> T clustered(Supplier<T> command) {
    try {
      return command.get();
    } catch (RuntimeException e) {
      throw translated(e);
    }
  }

  /** A failure of the cluster's state as {@link StoreUnavailableException}; others as they are. */
  static RuntimeException translated(Throwable failure) {
    Throwable e =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    if (isClusterState(e)) {
      return new StoreUnavailableException(e.getMessage(), e);
    }
    return e instanceof RuntimeException runtime ? runtime : new CompletionException(e);
  }

  private static boolean isClusterState(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof AvailabilityException
          || t instanceof SuspectException
          || t instanceof TimeoutException
          || t instanceof IllegalLifecycleStateException) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void forEachLocal(BitSet segments, EntryVisitor visitor) {
    // Raw view: the cache is shared and outlives deployments, so an entry Belfry did not write
    // (or a damaged one) must be skipped, not end the scan: recovery and sweeps depend on it.
    @SuppressWarnings({"unchecked", "rawtypes"})
    AdvancedCache<Object, Object> raw = (AdvancedCache) local;
    try (CacheStream<Map.Entry<Object, Object>> all = raw.entrySet().stream()) {
      CacheStream<Map.Entry<Object, Object>> stream =
          segments == null
              ? all
              : all.filterKeySegments(IntSets.from(segments.stream().iterator()));
      Iterator<Map.Entry<Object, Object>> entries = stream.iterator();
      while (entries.hasNext()) {
        Map.Entry<Object, Object> entry = entries.next();
        if (entry.getKey() instanceof String key && entry.getValue() instanceof String value) {
          try {
            visitor.visit(key, CacheValues.fromCache(value));
          } catch (RuntimeException e) {
            LOG.warnf(
                "BELFRY-0203 Skipping entry %s that is not a reminder: %s", key, e.toString());
          }
        } else {
          LOG.debugf("BELFRY-0204 Skipping foreign entry %s", entry.getKey());
        }
      }
    }
  }

  private static Optional<StoredReminder> stored(ReminderId id, String value) {
    if (value == null) {
      return Optional.empty();
    }
    byte[] encoded = CacheValues.fromCache(value);
    return encoded == null
        ? Optional.empty()
        : Optional.of(new StoredReminder(ReminderCodec.decode(id, encoded), encoded));
  }
}
