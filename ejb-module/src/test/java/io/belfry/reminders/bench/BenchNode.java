package io.belfry.reminders.bench;

import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.engine.LoopbackJGroups;
import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.fire.Delivery;
import io.belfry.reminders.fire.EngineListener;
import io.belfry.reminders.fire.EngineSettings;
import io.belfry.reminders.placement.CacheOwnership;
import io.belfry.reminders.store.InfinispanReminderStore;
import io.belfry.reminders.store.KeyIndex;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.infinispan.Cache;
import org.infinispan.configuration.cache.CacheMode;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.manager.DefaultCacheManager;

/**
 * One Belfry node as WildFly runs it, minus WildFly: a single-member clustered cache manager
 * (JGroups TCP on loopback), the {@code reminders} cache in REPL_SYNC with PROTOSTREAM and,
 * optionally, a Soft-Index file store with preload, and one {@link ReminderEngine} on the system
 * clock with a timer thread and a two-thread delivery pool (a managed executor's stand-in).
 *
 * <p>The delivery is a settable sink so each phase of the benchmark can count and time fires its
 * own way. Public, with {@link SteadyRate}, for benchmarks of other modules (the test-jar): they
 * start a node, optionally with an {@link EngineListener}, and measure with {@link SteadyRate}.
 * {@link #member} starts one member of a cluster of several nodes in the same JVM instead (the
 * comparison harness of {@code benchmarks/}); its JGroups ports are the caller's, picked with
 * {@link LoopbackJGroups#freePorts} (from 20,000 up, never WildFly's 7600-7700).
 */
public final class BenchNode implements AutoCloseable {

  /** Where the reminders cache keeps its entries. */
  public enum Storage {
    /** Soft-Index file store, preload, asynchronous fsync (Infinispan's default): as in WildFly. */
    FILE_STORE("REPL_SYNC + Soft-Index file store"),
    /** No store at all; memory only. For comparison. */
    MEMORY("REPL_SYNC, no store"),
    /**
     * As {@link #FILE_STORE}, with at most {@link BenchNode#MEMORY_ENTRIES} entries kept in memory,
     * the rest on disk only: as WildFly with {@code belfry.cache.memory-entries} set. The label
     * does not name the number: the benchmarks' WAR loads this enum without the rest of BenchNode.
     */
    BOUNDED_FILE_STORE("REPL_SYNC + Soft-Index file store, memory bounded");

    public final String label;

    Storage(String label) {
      this.label = label;
    }
  }

  /** {@code bench.memoryEntries}: what {@link Storage#BOUNDED_FILE_STORE} keeps in memory. */
  public static final long MEMORY_ENTRIES = Long.getLong("bench.memoryEntries", 10_000);

  /** Default engine settings except the backlog limiter, which a same-instant burst would hit. */
  public static final EngineSettings UNTHROTTLED =
      new EngineSettings(
          EngineSettings.DEFAULT_SCAN_INTERVAL,
          EngineSettings.DEFAULT_TOMBSTONE_TTL,
          10_000_000,
          java.time.Duration.ofHours(1),
          EngineSettings.DEFAULT_SWEEP_SEGMENTS_PER_SCAN,
          EngineSettings.DEFAULT_MAX_FIRES_PER_RUN,
          EngineSettings.DEFAULT_STANDBY_HINTS);

  final Storage storage;
  final ReminderEngine engine;
  private final DefaultCacheManager manager;
  private final ScheduledThreadPoolExecutor timer;
  private final ExecutorService deliveries;
  private volatile Delivery sink = fire -> {};

  /** How long the cache took to start, preloading its store; and the engine's recovery. */
  final long cacheStartMillis;

  final long engineStartMillis;

  /** When the engine's start began ({@link System#nanoTime()}): the first fire can come after. */
  final long engineStartNanos;

  private final Cache<String, String> reminders;

  /** A new key index of this node's replica, which reads it at its first use (as after a start). */
  public KeyIndex newKeyIndex() {
    return new KeyIndex(new InfinispanReminderStore(reminders), new CacheOwnership(reminders));
  }

  private BenchNode(
      Path home,
      Storage storage,
      EngineSettings settings,
      EngineListener listener,
      String clusterName,
      String nodeName,
      int port,
      int... members) {
    this.storage = storage;
    GlobalConfigurationBuilder global =
        LoopbackJGroups.member(home, clusterName, nodeName, port, members);
    ConfigurationBuilder cache = new ConfigurationBuilder();
    cache.clustering().cacheMode(CacheMode.REPL_SYNC).remoteTimeout(15, TimeUnit.SECONDS);
    if (storage == Storage.BOUNDED_FILE_STORE) {
      cache.memory().maxCount(MEMORY_ENTRIES);
    }
    if (storage != Storage.MEMORY) {
      LoopbackJGroups.fileStore(cache, home);
    }
    manager = new DefaultCacheManager(global.build());
    manager.defineConfiguration("reminders", cache.build());
    long cacheStart = System.nanoTime();
    reminders = manager.getCache("reminders");
    cacheStartMillis = (System.nanoTime() - cacheStart) / 1_000_000;
    timer = new ScheduledThreadPoolExecutor(1, r -> thread(r, "belfry-bench-timer"));
    timer.setRemoveOnCancelPolicy(true);
    deliveries = Executors.newFixedThreadPool(2, r -> thread(r, "belfry-bench-delivery"));
    engine =
        ReminderEngine.builder(reminders)
            .timer(timer)
            .deliveryExecutor(deliveries)
            .delivery(this::deliver)
            .settings(settings)
            .listener(listener)
            .build();
    long engineStart = System.nanoTime();
    engineStartNanos = engineStart;
    engine.start();
    // recovery goes on in steps after start returns, firing as it goes: the node counts as
    // started once it is done
    while (!engine.recovered()) {
      LockSupport.parkNanos(1_000_000);
    }
    engineStartMillis = (System.nanoTime() - engineStart) / 1_000_000;
  }

  static BenchNode start(Path home, Storage storage, EngineSettings settings) {
    return start(home, storage, settings, EngineListener.NONE);
  }

  /**
   * A started node whose engine reports to {@code listener} (as WildFly's {@code
   * ActivityAnnouncer}); its files go under {@code home}.
   */
  public static BenchNode start(
      Path home, Storage storage, EngineSettings settings, EngineListener listener) {
    int port = LoopbackJGroups.freePort();
    return new BenchNode(
        home,
        storage,
        settings,
        listener,
        "belfry-bench-" + UUID.randomUUID(),
        "bench",
        port,
        port);
  }

  /**
   * Starts member {@code index} of the cluster {@code clusterName} whose members listen on {@code
   * ports} (loopback); its files go under {@code home}. The caller waits for a stable topology
   * ({@link #members()}) before relying on ownership.
   */
  public static BenchNode member(
      Path home,
      Storage storage,
      EngineSettings settings,
      EngineListener listener,
      String clusterName,
      int index,
      int... ports) {
    return new BenchNode(
        home, storage, settings, listener, clusterName, "node" + index, ports[index], ports);
  }

  /** The node's engine: sets, cancels, counts what it armed. */
  public ReminderEngine engine() {
    return engine;
  }

  /** Members of the cache's current topology, or 0 while a rebalance is in progress. */
  public int members() {
    var distribution = reminders.getAdvancedCache().getDistributionManager();
    return distribution.isRehashInProgress()
        ? 0
        : distribution.getCacheTopology().getMembers().size();
  }

  /** How long the cache took to start (preloading its store), in ms. */
  public long cacheStartMillis() {
    return cacheStartMillis;
  }

  /** Replaces what every delivery of this node calls. */
  public void onFire(Delivery sink) {
    this.sink = sink;
  }

  /** Waits until the scheduler has applied every write so far (armed == expected), or times out. */
  public boolean awaitArmed(int expected, long timeoutMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (engine.armedCount() < expected) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
    return true;
  }

  private void deliver(ReminderFired fire) throws Exception {
    sink.deliver(fire);
  }

  @Override
  public void close() {
    engine.stop();
    timer.shutdownNow();
    deliveries.shutdownNow();
    manager.stop();
  }

  private static Thread thread(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
