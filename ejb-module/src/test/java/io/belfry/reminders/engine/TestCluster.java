package io.belfry.reminders.engine;

import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.fire.EngineSettings;
import io.belfry.reminders.fire.ResurrectionGuard;
import io.belfry.reminders.placement.ReadyEngines;
import io.belfry.reminders.schedule.SettableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.infinispan.Cache;
import org.infinispan.commons.dataconversion.MediaType;
import org.infinispan.configuration.cache.CacheMode;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.manager.EmbeddedCacheManager;
import org.infinispan.manager.EmbeddedCacheManagerStartupException;

/**
 * Three embedded Infinispan members in one JVM, the way WildFly runs the reminders cache:
 * REPL_SYNC, PROTOSTREAM (the default marshaller), a Soft-Index file store with preload per member,
 * JGroups TCP + TCPPING on loopback ports picked free at start. Each member runs a {@link
 * ReminderEngine} without timer, driven by {@link #tickAll()} on one shared {@link SettableClock}.
 */
final class TestCluster implements AutoCloseable {

  static final int SIZE = 3;
  static final Duration AWAIT = Duration.ofSeconds(60);

  /** One delivered fire and the member that delivered it. */
  record Delivered(int node, ReminderFired fire) {}

  final SettableClock clock = new SettableClock(Instant.parse("2026-11-21T09:00:00Z"));
  final Queue<Delivered> delivered = new ConcurrentLinkedQueue<>();

  /**
   * Members whose deliveries are accepted and never run, as if the member died right after it
   * committed them (a fire, or an at-least-once lease).
   */
  final Set<Integer> hung = ConcurrentHashMap.newKeySet();

  private final Path root;
  private final String clusterName = "belfry-test-" + UUID.randomUUID();
  private final int[] ports = LoopbackJGroups.freePorts(SIZE);
  private final EmbeddedCacheManager[] managers = new EmbeddedCacheManager[SIZE];
  private final ReminderEngine[] engines = new ReminderEngine[SIZE];
  private final Map<Integer, Cache<String, String>> caches = new ConcurrentHashMap<>();

  /** Entries each member's cache keeps in memory; 0 for all of them (nothing evicted). */
  private final long memoryEntries;

  /**
   * Whether a member's start waits for its state, as WildFly's cache with a state-transfer timeout
   * above 0 does; Belfry's server configuration does not wait (configure-cache.cli).
   */
  private boolean joinersWaitForState = true;

  private EngineSettings settings = EngineSettings.DEFAULTS;

  private ResurrectionGuard guard = ResurrectionGuard.NONE;

  /** Whether engines announce themselves in an {@code engines} cache, as on WildFly. */
  private boolean roster;

  private final Map<Integer, ReadyEngines> rosters = new ConcurrentHashMap<>();

  /** Asks a joiner that holds back whether it is armed, as EngineRuntime's timer does. */
  private final ScheduledExecutorService announcer =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread thread = new Thread(task, "test-cluster-announcer");
            thread.setDaemon(true);
            return thread;
          });

  TestCluster(Path root) {
    this(root, 0);
  }

  /**
   * A cluster whose caches keep at most {@code memoryEntries} entries in memory, the rest on disk.
   */
  TestCluster(Path root, long memoryEntries) {
    this.root = root;
    this.memoryEntries = memoryEntries;
  }

  /**
   * Members started from now on join without waiting for their state, and receive it in small
   * chunks, so that a joiner's engine starts while its state is still coming.
   */
  TestCluster joinWithoutWaitingForState() {
    joinersWaitForState = false;
    return this;
  }

  /** Whether engines started from now on keep standby hints (on by default, as on WildFly). */
  TestCluster withStandbyHints(boolean keep) {
    settings = settings.withStandbyHints(keep);
    return this;
  }

  /** Engines started from now on ask {@code guard} about versions minted before they started. */
  TestCluster withResurrectionGuard(ResurrectionGuard guard) {
    this.guard = guard;
    return this;
  }

  /**
   * Members started from now on also hold an {@code engines} cache, and their engines announce
   * themselves there ({@link ReadyEngines}), as {@code EngineRuntime} does on WildFly.
   */
  TestCluster withEngineRoster() {
    roster = true;
    return this;
  }

  /** Starts every member, waits for one stable view of all, then starts the engines. */
  TestCluster start() {
    return startFirst(SIZE);
  }

  /**
   * Starts the first {@code members} members, waits for their stable view, then starts their
   * engines; the others can join later ({@link #startMember}).
   */
  TestCluster startFirst(int members) {
    for (int i = 0; i < members; i++) {
      startMember(i);
    }
    awaitStableTopology(members);
    for (int i = 0; i < members; i++) {
      startEngine(i);
    }
    if (roster) {
      // engines that joined running ones hold back until armed (ReadyEngines): wait for them
      tickUntil(
          () -> rosters.values().stream().noneMatch(ReadyEngines::holdingBack),
          "every engine announced");
      tickAll();
    }
    return this;
  }

  ReminderEngine engine(int node) {
    return engines[node];
  }

  Cache<String, String> cache(int node) {
    return caches.get(node);
  }

  /** The hints armed on every member whose engine runs, together. */
  int armedTotal() {
    int armed = 0;
    for (ReminderEngine engine : engines) {
      armed += engine == null ? 0 : engine.armedCount();
    }
    return armed;
  }

  /** The roster entry of {@code node}'s engine, with {@link #withEngineRoster()}. */
  ReadyEngines roster(int node) {
    return rosters.get(node);
  }

  boolean isUp(int node) {
    return engines[node] != null;
  }

  /** Stops one member's engine and cache manager (it leaves the cluster). */
  void stopMember(int node) {
    stopEngine(node);
    if (managers[node] != null) {
      managers[node].stop();
      managers[node] = null;
      caches.remove(node);
    }
  }

  /** Stops one member's engine only (withdrawn first, as on WildFly); its cache stays a member. */
  void stopEngine(int node) {
    ReadyEngines announced = rosters.remove(node);
    if (announced != null) {
      announced.withdraw();
    }
    if (engines[node] != null) {
      engines[node].stop();
      engines[node] = null;
    }
  }

  void stopAll() {
    for (int i = SIZE - 1; i >= 0; i--) {
      stopMember(i);
    }
  }

  /** One scheduler run on every live member. */
  int tickAll() {
    int fired = 0;
    for (ReminderEngine engine : engines) {
      if (engine != null) {
        fired += engine.tick();
      }
    }
    return fired;
  }

  /** Ticks every member until {@code condition} holds; fails after {@link #AWAIT}. */
  void tickUntil(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + AWAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Timed out waiting for " + what);
      }
      if (tickAll() == 0) {
        // Nothing due right now: let replication and topology threads progress.
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
      }
    }
  }

  List<Delivered> deliveredIn(String namespace) {
    return delivered.stream()
        .filter(d -> d.fire().getNamespace().equals(namespace))
        .collect(Collectors.toCollection(ArrayList::new));
  }

  void awaitStableTopology(int members) {
    awaitStableTopology(members, AWAIT);
  }

  void awaitStableTopology(int members, Duration timeout) {
    await(
        timeout,
        () ->
            caches.values().stream()
                .allMatch(
                    c -> {
                      var dm = c.getAdvancedCache().getDistributionManager();
                      return dm.getCacheTopology().getMembers().size() == members
                          && !dm.isRehashInProgress();
                    }),
        "a stable topology of " + members + " members");
  }

  static void await(BooleanSupplier condition, String what) {
    await(AWAIT, condition, what);
  }

  static void await(Duration timeout, BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Timed out waiting for " + what);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
  }

  /**
   * Starts a member's cache manager, once more if its first start timed out in the state transfer
   * of Infinispan's internal {@code CONFIG} cache: a CI rehearsal of 2026-11-28 saw a join wait 240
   * s for state its peer never sent, before any of Belfry's code ran (Keycloak reports the same in
   * about one run in a hundred, ISPN-14982).
   */
  private static DefaultCacheManager startManager(GlobalConfigurationBuilder global) {
    try {
      return new DefaultCacheManager(global.build());
    } catch (EmbeddedCacheManagerStartupException e) {
      System.err.println("TestCluster: a member's start timed out, started again: " + e);
      return new DefaultCacheManager(global.build());
    }
  }

  void startMember(int node) {
    Path home = root.resolve("node" + node);
    GlobalConfigurationBuilder global =
        LoopbackJGroups.member(home, clusterName, "node" + node, ports[node], ports);
    ConfigurationBuilder cache = new ConfigurationBuilder();
    cache.clustering().cacheMode(CacheMode.REPL_SYNC).remoteTimeout(15, TimeUnit.SECONDS);
    if (!joinersWaitForState) {
      cache.clustering().stateTransfer().awaitInitialTransfer(false).chunkSize(16);
    }
    // Stored encoded, as in WildFly (whose deployment-facing cache marshals keys and values):
    // the segment of a key is then the partitioner's on its storage form, not on the String.
    cache.encoding().key().mediaType(MediaType.APPLICATION_PROTOSTREAM_TYPE);
    cache.encoding().value().mediaType(MediaType.APPLICATION_PROTOSTREAM_TYPE);
    LoopbackJGroups.fileStore(cache, home);
    if (memoryEntries > 0) {
      cache.memory().maxCount(memoryEntries);
    }
    DefaultCacheManager manager = startManager(global);
    manager.defineConfiguration("reminders", cache.build());
    if (roster) {
      ConfigurationBuilder engines = new ConfigurationBuilder();
      engines.clustering().cacheMode(CacheMode.REPL_SYNC);
      engines.encoding().key().mediaType(MediaType.APPLICATION_PROTOSTREAM_TYPE);
      engines.encoding().value().mediaType(MediaType.APPLICATION_PROTOSTREAM_TYPE);
      manager.defineConfiguration("engines", engines.build());
      manager.getCache("engines");
    }
    managers[node] = manager;
    caches.put(node, manager.getCache("reminders"));
  }

  void startEngine(int node) {
    ReadyEngines ready = null;
    if (roster) {
      ready =
          new ReadyEngines(
              managers[node].<String, String>getCache("engines"),
              "test",
              ForkJoinPool.commonPool());
      ready.start(
          () -> {
            ReminderEngine running = engines[node];
            if (running != null) {
              running.firingMembersChanged();
            }
          },
          settings.standbyHints());
    }
    ReminderEngine engine =
        ReminderEngine.builder(caches.get(node), ready != null ? ready::isReady : member -> true)
            .clock(clock)
            .delivery(fire -> delivered.add(new Delivered(node, fire)))
            .deliveryExecutor(
                task -> {
                  if (!hung.contains(node)) {
                    task.run();
                  }
                })
            .settings(settings)
            .resurrectionGuard(guard)
            .build();
    engine.start();
    engines[node] = engine;
    if (ready != null) {
      ready.announceWhen(engine::armedForShare, announcer);
      rosters.put(node, ready);
    }
  }

  @Override
  public void close() {
    stopAll();
    announcer.shutdownNow();
  }
}
