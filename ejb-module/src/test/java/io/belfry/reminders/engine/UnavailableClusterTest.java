package io.belfry.reminders.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.api.RemindersUnavailableException;
import io.belfry.reminders.fire.EngineListener;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.placement.CacheChangeFeed;
import io.belfry.reminders.placement.CacheOwnership;
import io.belfry.reminders.placement.ReplicaSettling;
import io.belfry.reminders.store.InfinispanReminderStore;
import io.belfry.reminders.store.ReminderStore;
import io.belfry.reminders.store.StoreUnavailableException;
import io.belfry.reminders.store.StoredReminder;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.context.Flag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sets and cancels while the cluster cannot take them, on a real replicated cache: the store fails
 * the way Infinispan does while a view change settles or a partition lasts. A write whose answer
 * was lost is recognised as applied (not applied twice, not reported as missing); a short outage is
 * waited out; a long one ends with {@link RemindersUnavailableException} and nothing changed.
 */
class UnavailableClusterTest {

  private TestCluster cluster;
  private final List<String> announced = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start(@TempDir Path dir) {
    cluster = new TestCluster(dir).start();
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void set_whoseAnswerWasLost_isRecognisedAsAppliedAndAnnouncedOnce() {
    FailingStore store = new FailingStore(cluster.cache(0));
    ReminderEngine engine = engine(store, Duration.ofSeconds(5));
    ReminderId id = ReminderId.of("unavailable", "lost-answer");

    store.loseAnswersOfNextWrites(1);
    SetResult result = engine.set(dueInAnHour(id));

    assertThat(result.created()).isTrue();
    assertThat(engine.get(id)).contains(result.record());
    assertThat(store.writes.get()).as("applied once, not written again").isEqualTo(1);
    assertThat(announced).containsExactly("set " + result.record().version());
  }

  @Test
  void set_appliedOnThisReplicaOnlyBeforeItsAnswerWasLost_isOnEveryReplicaWhenAnnounced() {
    FailingStore store = new FailingStore(cluster.cache(0));
    ReminderEngine engine = engine(store, Duration.ofSeconds(5));
    ReminderId id = keyWhosePrimaryIsNotMember0("here-only-set");

    store.applyNextWriteHereOnlyAndLoseItsAnswer();
    SetResult result = engine.set(dueInAnHour(id));

    assertEveryReplicaHolds(id, result.record());
    assertThat(announced).containsExactly("set " + result.record().version());
  }

  @Test
  void cancel_appliedOnThisReplicaOnlyBeforeItsAnswerWasLost_isOnEveryReplicaWhenAnswered() {
    FailingStore store = new FailingStore(cluster.cache(0));
    ReminderEngine engine = engine(store, Duration.ofSeconds(5));
    ReminderId id = keyWhosePrimaryIsNotMember0("here-only-cancel");
    long version = engine.set(dueInAnHour(id)).record().version();

    store.applyNextWriteHereOnlyAndLoseItsAnswer();
    ReminderRecord tombstone = engine.cancel(id);

    assertThat(tombstone.state()).isEqualTo(ReminderState.CANCELLED);
    assertThat(tombstone.version()).isEqualTo(version);
    assertEveryReplicaHolds(id, tombstone);
  }

  @Test
  void set_throughAMemberWhoseReplicaMissedTheKey_settlesItsReplicasAndReplaces() {
    FailingStore store = new FailingStore(cluster.cache(0));
    ReminderEngine engine = engine(store, Duration.ofSeconds(5));
    ReminderId id = keyWhosePrimaryIsNotMember0("missed-by-member-0");
    ReminderRecord first = engine.set(dueInAnHour(id)).record();
    // member 0's replica loses the key, as a joiner's that missed a write during its state transfer
    cluster.cache(0).getAdvancedCache().withFlags(Flag.CACHE_MODE_LOCAL).remove(id.cacheKey());

    SetResult second = engine.set(ReminderSpec.once(id, Instant.now().plusSeconds(7200), null));

    assertThat(second.replaced()).as("replaced the version member 0 had missed").isPresent();
    assertThat(second.replaced().get().version()).isEqualTo(first.version());
    assertEveryReplicaHolds(id, second.record());
  }

  @Test
  void cancel_soonAfterATopologyChange_throughAMemberWhoseReplicaMissedTheKey_cancelsIt() {
    FailingStore store = new FailingStore(cluster.cache(0));
    ReminderEngine engine = engine(store, Duration.ofSeconds(5));
    ReminderId id = keyWhosePrimaryIsNotMember0("missed-then-cancelled");
    long version = engine.set(dueInAnHour(id)).record().version();
    cluster.cache(0).getAdvancedCache().withFlags(Flag.CACHE_MODE_LOCAL).remove(id.cacheKey());

    // the members have just formed their topology: a replica may still lack what others hold
    assertThat(store.replicasMayDiffer()).isTrue();
    ReminderRecord tombstone = engine.cancel(id);

    assertThat(tombstone.state()).isEqualTo(ReminderState.CANCELLED);
    assertThat(tombstone.version()).isEqualTo(version);
    assertEveryReplicaHolds(id, tombstone);
  }

  private static ReminderSpec dueInAnHour(ReminderId id) {
    return ReminderSpec.once(id, Instant.now().plusSeconds(3600), null);
  }

  /** A key of which member 0 is a backup, as the node a client wrote through often is. */
  private ReminderId keyWhosePrimaryIsNotMember0(String prefix) {
    AdvancedCache<String, String> cache = cluster.cache(0).getAdvancedCache();
    for (int i = 0; ; i++) {
      ReminderId id = ReminderId.of("unavailable", prefix + "-" + i);
      Object storageKey = cache.getKeyDataConversion().toStorage(id.cacheKey());
      if (!cache
          .getDistributionManager()
          .getCacheTopology()
          .getDistribution(storageKey)
          .isPrimary()) {
        return id;
      }
    }
  }

  private void assertEveryReplicaHolds(ReminderId id, ReminderRecord record) {
    for (int node = 0; node < TestCluster.SIZE; node++) {
      // a replicated cache reads its own replica
      Optional<ReminderRecord> held =
          new InfinispanReminderStore(cluster.cache(node)).get(id).map(StoredReminder::record);
      assertThat(held).as("member %d's replica", node).contains(record);
    }
  }

  @Test
  void cancel_whoseAnswerWasLost_returnsTheTombstoneInsteadOfNotFound() {
    FailingStore store = new FailingStore(cluster.cache(0));
    ReminderEngine engine = engine(store, Duration.ofSeconds(5));
    ReminderId id = ReminderId.of("unavailable", "lost-cancel");
    long version = engine.set(dueInAnHour(id)).record().version();

    store.loseAnswersOfNextWrites(1);
    ReminderRecord tombstone = engine.cancel(id);

    assertThat(tombstone.state()).isEqualTo(ReminderState.CANCELLED);
    assertThat(tombstone.version()).isEqualTo(version);
    assertThat(engine.get(id)).contains(tombstone);
    assertThat(announced).containsExactly("set " + version, "cancelled " + version);
  }

  @Test
  void aShortOutage_isWaitedOut() {
    FailingStore store = new FailingStore(cluster.cache(0));
    ReminderEngine engine = engine(store, Duration.ofSeconds(5));
    ReminderId id = ReminderId.of("unavailable", "short-outage");

    store.refuseFor(Duration.ofMillis(300));
    SetResult result = engine.set(dueInAnHour(id));

    assertThat(store.refusals.get()).as("the engine met the outage").isPositive();
    assertThat(engine.get(id)).contains(result.record());
    assertThat(cluster.cache(1).get(id.cacheKey())).as("replicated").isNotNull();
  }

  @Test
  void anOutageLongerThanThePatience_failsWithUnavailableAndChangesNothing() {
    FailingStore store = new FailingStore(cluster.cache(0));
    ReminderEngine engine = engine(store, Duration.ofMillis(300));
    ReminderId id = ReminderId.of("unavailable", "long-outage");
    ReminderRecord live =
        engine.set(ReminderSpec.once(id, Instant.now().plusSeconds(60), null)).record();

    store.refuseFor(Duration.ofSeconds(30));
    assertThatThrownBy(() -> engine.set(dueInAnHour(id)))
        .isInstanceOf(RemindersUnavailableException.class)
        .hasMessageContaining("'long-outage'")
        .hasCauseInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(() -> engine.cancel(id)).isInstanceOf(RemindersUnavailableException.class);
    assertThatThrownBy(() -> engine.get(id)).isInstanceOf(RemindersUnavailableException.class);

    store.refuseFor(Duration.ZERO);
    assertThat(engine.get(id)).contains(live);
    assertThat(announced).containsExactly("set " + live.version());
  }

  @Test
  void dueDuringAnOutage_firesOnceAfterIt_andTheStoreIsAskedAFewTimesASecondMeanwhile()
      throws Exception {
    int refused = fireAcrossAnOutage(new FailingStore(cluster.cache(0)));
    assertThat(refused)
        .as("fire attempts refused in 1.3 s of outage (a pause between them, not a spin)")
        .isBetween(1, 20);
  }

  @Test
  void dueDuringAnOutageTheStoreAnnounces_isNotTriedUntilItEnds() throws Exception {
    FailingStore store = new FailingStore(cluster.cache(0));
    store.announcesOutages = true;
    assertThat(fireAcrossAnOutage(store)).as("fire attempts refused during the outage").isZero();
  }

  /**
   * Sets a reminder due in 200 ms on an engine with a timer, makes the store refuse everything for
   * 1.5 s, and asserts that it fires once after the outage.
   *
   * @return how many requests the store refused while the reminder was due
   */
  private int fireAcrossAnOutage(FailingStore store) throws Exception {
    List<Long> fired = new CopyOnWriteArrayList<>();
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    Cache<String, String> cache = cluster.cache(0);
    CacheOwnership ownership = new CacheOwnership(cache);
    ReminderEngine engine =
        ReminderEngine.builder(store, ownership, new CacheChangeFeed(cache))
            .timer(timer)
            .deliveryExecutor(Runnable::run)
            .delivery(fire -> fired.add(fire.getFence()))
            .build();
    try {
      engine.start();
      ReminderId id = ReminderId.of("unavailable", "due-during-outage");
      // the first key this node owns, so that this engine is the one to fire it
      for (int i = 0; !ownership.isPrimaryOwner(id.cacheKey()); i++) {
        id = ReminderId.of("unavailable", "due-during-outage-" + i);
      }
      long version =
          engine.set(ReminderSpec.once(id, Instant.now().plusMillis(200), null)).record().version();
      store.refuseFor(Duration.ofMillis(1_500));
      int refusalsBefore = store.refusals.get();

      Thread.sleep(1_500);
      int refusedWhileDue = store.refusals.get() - refusalsBefore;
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (fired.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      Thread.sleep(500); // room for a second fire
      assertThat(fired).as("fired once, after the outage").containsExactly(version);
      return refusedWhileDue;
    } finally {
      engine.stop();
      timer.shutdownNow();
    }
  }

  @Test
  void aStoppedCache_isReportedAsUnavailable_notAsAnInternalError() {
    Cache<String, String> cache = cluster.cache(2);
    InfinispanReminderStore store = new InfinispanReminderStore(cache);
    cache.stop();

    assertThatThrownBy(() -> store.get(ReminderId.of("unavailable", "stopped")))
        .isInstanceOf(StoreUnavailableException.class);
  }

  private ReminderEngine engine(ReminderStore store, Duration patience) {
    Cache<String, String> cache = cluster.cache(0);
    return ReminderEngine.builder(store, new CacheOwnership(cache), new CacheChangeFeed(cache))
        .delivery(fire -> {})
        .listener(
            new EngineListener() {
              @Override
              public void set(ReminderRecord record) {
                announced.add("set " + record.version());
              }

              @Override
              public void replaced(ReminderRecord previous, ReminderRecord current) {
                announced.add("replaced " + previous.version() + " by " + current.version());
              }

              @Override
              public void cancelled(ReminderRecord tombstone) {
                announced.add("cancelled " + tombstone.version());
              }
            })
        .unavailablePatience(patience)
        .build();
  }

  /**
   * The real store on a real cache, failing as the cluster makes Infinispan fail: a write whose
   * answer is lost after it was applied everywhere (a member left mid-call), or every command
   * refused before it runs (a minority partition).
   */
  private static final class FailingStore implements ReminderStore {

    private final InfinispanReminderStore real;
    private final AtomicInteger answersToLose = new AtomicInteger();
    private volatile long refuseUntilNanos = System.nanoTime();
    final AtomicInteger writes = new AtomicInteger();
    final AtomicInteger refusals = new AtomicInteger();

    /** Whether {@link #acceptsWrites} tells of an outage, as Infinispan's availability does. */
    volatile boolean announcesOutages;

    /** The same store writing to this member's replica only. */
    private final InfinispanReminderStore hereOnly;

    private final AtomicBoolean nextWriteHereOnly = new AtomicBoolean();

    FailingStore(Cache<String, String> cache) {
      this.real = new InfinispanReminderStore(cache, new ReplicaSettling(cache)::settleIfDiffering);
      this.hereOnly =
          new InfinispanReminderStore(cache.getAdvancedCache().withFlags(Flag.CACHE_MODE_LOCAL));
    }

    /**
     * The next write reaches this member's replica only, and its answer is lost: what a primary
     * owner that dies mid-write leaves when it had sent the write to this member only.
     */
    void applyNextWriteHereOnlyAndLoseItsAnswer() {
      nextWriteHereOnly.set(true);
    }

    void loseAnswersOfNextWrites(int count) {
      writes.set(0);
      answersToLose.set(count);
    }

    void refuseFor(Duration outage) {
      refuseUntilNanos = System.nanoTime() + outage.toNanos();
    }

    @Override
    public Optional<StoredReminder> get(ReminderId id) {
      refuseDuringOutage();
      return real.get(id);
    }

    @Override
    public Optional<StoredReminder> putIfAbsent(ReminderRecord record) {
      refuseDuringOutage();
      if (nextWriteHereOnly.compareAndSet(true, false)) {
        hereOnly.putIfAbsent(record);
        throw new StoreUnavailableException("the primary owner left mid-write", null);
      }
      Optional<StoredReminder> there = real.putIfAbsent(record);
      written(there.isEmpty());
      return there;
    }

    @Override
    public boolean replace(StoredReminder expected, ReminderRecord next) {
      refuseDuringOutage();
      if (nextWriteHereOnly.compareAndSet(true, false)) {
        hereOnly.replace(expected, next);
        throw new StoreUnavailableException("the primary owner left mid-write", null);
      }
      return written(real.replace(expected, next));
    }

    @Override
    public boolean remove(StoredReminder expected) {
      refuseDuringOutage();
      return written(real.remove(expected));
    }

    @Override
    public boolean replicasMayDiffer() {
      return real.replicasMayDiffer();
    }

    @Override
    public boolean settleReplicas(ReminderId id) {
      refuseDuringOutage();
      return real.settleReplicas(id);
    }

    @Override
    public boolean acceptsWrites() {
      return !announcesOutages || System.nanoTime() - refuseUntilNanos >= 0;
    }

    @Override
    public void forEachLocal(BitSet segments, EntryVisitor visitor) {
      real.forEachLocal(segments, visitor);
    }

    private boolean written(boolean applied) {
      if (applied) {
        writes.incrementAndGet();
        if (answersToLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
          throw new StoreUnavailableException("the answer was lost: a member left", null);
        }
      }
      return applied;
    }

    private void refuseDuringOutage() {
      if (System.nanoTime() - refuseUntilNanos < 0) {
        refusals.incrementAndGet();
        throw new StoreUnavailableException("minority partition", null);
      }
    }
  }
}
