package io.belfry.reminders.fire;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.engine.ReminderEngineBuilder;
import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.schedule.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The scheduler on one in-memory node: timer mode, failures, backlog rate, tombstone TTL. */
class SchedulerTest {

  private final InMemoryNode node = new InMemoryNode();
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-21T09:00:00Z"));
  private final List<ReminderFired> fired = new CopyOnWriteArrayList<>();
  private final List<ReminderFired> failed = new CopyOnWriteArrayList<>();
  private final List<ReminderRecord> purged = new CopyOnWriteArrayList<>();
  private final EngineListener listener =
      new EngineListener() {
        @Override
        public void fired(ReminderFired fire) {
          fired.add(fire);
        }

        @Override
        public void deliveryFailed(ReminderFired fire, Throwable failure) {
          failed.add(fire);
        }

        @Override
        public void archive(List<ReminderRecord> tombstones) {
          if (archiveFails) {
            throw new IllegalStateException("archive down");
          }
          purged.addAll(tombstones);
        }
      };
  private volatile boolean archiveFails;
  private ScheduledExecutorService timer;

  @AfterEach
  void stopTimer() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }

  @Test
  void start_withTimer_firesAtDueTimeWithoutManualTicks() throws Exception {
    timer = Executors.newSingleThreadScheduledExecutor();
    CountDownLatch delivered = new CountDownLatch(2);
    ReminderEngine engine =
        ReminderEngine.builder(node, node, node)
            .timer(timer)
            .delivery(fire -> delivered.countDown())
            .build();
    engine.start();
    Instant now = Instant.now();
    engine.set(ReminderSpec.once(ReminderId.of("ns", "a"), now.plusMillis(200), null));
    // An earlier one arriving later re-arms the wake-up.
    engine.set(ReminderSpec.once(ReminderId.of("ns", "b"), now.plusMillis(50), null));

    assertThat(delivered.await(10, TimeUnit.SECONDS)).isTrue();
    engine.stop();
  }

  @Test
  void start_withTimer_recoversInSteps_firesWhatTheFirstStepFoundBeforeTheRestIsRead()
      throws Exception {
    node.segments = 16;
    String early = keyInSegments(0, 8);
    String late = keyInSegments(8, 16);
    ReminderEngine before = ReminderEngine.builder(node, node, node).delivery(fire -> {}).build();
    Instant due = Instant.now().minusSeconds(1);
    before.set(ReminderSpec.once(ReminderId.of("ns", early), due, null));
    before.set(ReminderSpec.once(ReminderId.of("ns", late), due, null));
    // a scan of the late key's segment alone waits until the test lets it go on (a scan of every
    // segment at once, as recovery did before it went in steps, does not)
    CountDownLatch rest = new CountDownLatch(1);
    int lateSegment = node.segmentOf(ReminderId.of("ns", late).cacheKey());
    node.beforeScan =
        segments -> {
          if (segments != null && segments.get(lateSegment)) {
            try {
              rest.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        };
    List<String> delivered = new CopyOnWriteArrayList<>();
    ReminderEngine engine = onTimer(Executors.newSingleThreadScheduledExecutor(), delivered);

    engine.start();
    awaitUntil(() -> delivered.contains(early));
    Thread.sleep(200);
    assertThat(delivered).as("fired while the late segment is unread").containsExactly(early);
    assertThat(engine.recovered()).isFalse();

    rest.countDown();
    awaitUntil(engine::recovered);
    awaitUntil(() -> delivered.contains(late));
    assertThat(delivered).containsExactly(early, late);
    engine.stop();
  }

  @Test
  void start_withTimer_aRecoveryStepReadsWithoutTheLock_soARunFiresWhileTheStoreIsRead()
      throws Exception {
    node.segments = 16;
    ReminderEngine before = ReminderEngine.builder(node, node, node).delivery(fire -> {}).build();
    before.set(
        ReminderSpec.once(ReminderId.of("ns", "stored"), Instant.now().plusSeconds(3600), null));
    // every scan of recovery's steps hangs until the test lets it go on, as a slow store would
    CountDownLatch slowStore = new CountDownLatch(1);
    CountDownLatch scanning = new CountDownLatch(1);
    node.beforeScan =
        segments -> {
          if (segments != null) {
            scanning.countDown();
            try {
              slowStore.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        };
    List<String> delivered = new CopyOnWriteArrayList<>();
    // two timer threads, as the server's managed scheduled executor has
    ReminderEngine engine = onTimer(Executors.newScheduledThreadPool(2), delivered);
    engine.start();
    assertThat(scanning.await(5, TimeUnit.SECONDS)).isTrue();

    engine.set(ReminderSpec.once(ReminderId.of("ns", "new"), Instant.now().plusMillis(50), null));

    try {
      awaitUntil(() -> delivered.contains("new"));
      assertThat(engine.recovered()).as("the step is still reading").isFalse();
    } finally {
      slowStore.countDown();
    }
    awaitUntil(engine::recovered);
    assertThat(engine.armedCount()).as("what the step read is armed after all").isEqualTo(1);
    engine.stop();
  }

  @Test
  void start_withTimer_theSweepWaitsForRecovery_soNoWindowIsReadBesideIt() throws Exception {
    node.segments = 16;
    ReminderEngine before = ReminderEngine.builder(node, node, node).delivery(fire -> {}).build();
    before.set(
        ReminderSpec.once(ReminderId.of("ns", "stored"), Instant.now().plusSeconds(3600), null));
    // recovery's first step hangs until the test lets it go on; every scan is counted
    CountDownLatch slowStore = new CountDownLatch(1);
    AtomicInteger scans = new AtomicInteger();
    node.beforeScan =
        segments -> {
          if (segments != null && scans.incrementAndGet() == 1) {
            try {
              slowStore.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        };
    // two timer threads, so that a sweep could run beside the hanging step
    ReminderEngine engine =
        onTimer(Executors.newScheduledThreadPool(2), new CopyOnWriteArrayList<>());
    engine.start();
    try {
      // two and a half scan intervals (EngineSettings.DEFAULT_SCAN_INTERVAL), each with runs
      Thread.sleep(2_500);
      assertThat(scans.get()).as("scans while recovery's first step reads").isEqualTo(1);
    } finally {
      slowStore.countDown();
    }
    awaitUntil(engine::recovered);
    int recoveryScans = scans.get();
    awaitUntil(() -> scans.get() > recoveryScans);
    engine.stop();
  }

  @Test
  void start_withTimer_theSweepReadsWithoutTheLock_soARunFiresWhileItReads() throws Exception {
    List<String> delivered = new CopyOnWriteArrayList<>();
    // two timer threads, as the server's managed scheduled executor has
    ReminderEngine engine = onTimer(Executors.newScheduledThreadPool(2), delivered);
    engine.start();
    awaitUntil(engine::recovered);
    // the next scan of a window (the sweep's, every scan interval) hangs until the test lets it go
    CountDownLatch slowStore = new CountDownLatch(1);
    CountDownLatch scanning = new CountDownLatch(1);
    CountDownLatch scanned = new CountDownLatch(1);
    node.beforeScan =
        segments -> {
          if (segments != null && scanning.getCount() > 0) {
            scanning.countDown();
            try {
              slowStore.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            scanned.countDown();
          }
        };
    try {
      assertThat(scanning.await(5, TimeUnit.SECONDS)).as("a sweep started").isTrue();
      engine.set(ReminderSpec.once(ReminderId.of("ns", "due"), Instant.now().plusMillis(50), null));

      awaitUntil(() -> delivered.contains("due"));
      assertThat(scanned.getCount()).as("the sweep is still reading").isEqualTo(1);
    } finally {
      slowStore.countDown();
    }
    engine.stop();
  }

  @Test
  void start_withTimer_aCommitInFlightHoldsNoLock_soALaterReminderFiresMeanwhile()
      throws Exception {
    // the first fire's replicated write hangs until the test lets it go; later ones are quick
    CountDownLatch slowCommit = new CountDownLatch(1);
    CountDownLatch committing = new CountDownLatch(1);
    ExecutorService replicas = Executors.newCachedThreadPool();
    hangFirstCommit(replicas, committing, slowCommit);
    List<String> delivered = new CopyOnWriteArrayList<>();
    // two timer threads, as the server's managed scheduled executor has
    ReminderEngine engine = onTimer(Executors.newScheduledThreadPool(2), delivered);
    engine.start();
    engine.set(ReminderSpec.once(ReminderId.of("ns", "slow"), Instant.now().plusMillis(20), null));
    try {
      assertThat(committing.await(5, TimeUnit.SECONDS)).isTrue();
      engine.set(
          ReminderSpec.once(ReminderId.of("ns", "quick"), Instant.now().plusMillis(20), null));

      awaitUntil(() -> delivered.contains("quick"));
      assertThat(delivered).as("the first commit is still in flight").doesNotContain("slow");
    } finally {
      slowCommit.countDown();
    }
    awaitUntil(() -> delivered.contains("slow"));
    assertThat(delivered).containsExactly("quick", "slow");
    engine.stop();
    replicas.shutdownNow();
  }

  @Test
  void tick_aKeyWhoseCommitIsUndecided_isNotAttemptedAgainWhenTheSweepArmsItMeanwhile()
      throws Exception {
    // the first replicated write hangs until the test lets it go, as a replace does while the
    // topology changes; the entry stays pending in the store meanwhile
    CountDownLatch slowCommit = new CountDownLatch(1);
    CountDownLatch committing = new CountDownLatch(1);
    ExecutorService replicas = Executors.newCachedThreadPool();
    AtomicInteger commits = hangFirstCommit(replicas, committing, slowCommit);
    List<String> delivered = new CopyOnWriteArrayList<>();
    ReminderEngine engine =
        ReminderEngine.builder(node, node, node)
            .clock(clock)
            .delivery(fire -> delivered.add(fire.getKey()))
            .build();
    engine.start();
    engine.set(ReminderSpec.once(ReminderId.of("ns", "k"), clock.now().plusSeconds(1), null));
    clock.advance(Duration.ofSeconds(1));
    ExecutorService runs = Executors.newSingleThreadExecutor();
    try {
      var first = runs.submit(engine::tick);
      assertThat(committing.await(5, TimeUnit.SECONDS)).isTrue();

      engine.sweep(); // reads the entry, still pending, and arms it again
      assertThat(engine.tick()).as("a run while the first commit is undecided").isZero();
      assertThat(commits).as("replaces issued").hasValue(1);

      slowCommit.countDown();
      assertThat(first.get(10, TimeUnit.SECONDS)).isOne();
      assertThat(engine.tick()).as("the hint held back, now stale").isZero();
    } finally {
      slowCommit.countDown();
      runs.shutdownNow();
      replicas.shutdownNow();
    }
    assertThat(delivered).containsExactly("k");
    assertThat(commits).hasValue(1);
    engine.stop();
  }

  /**
   * Makes the first replicated write of {@link #node} hang on {@code replicas} until {@code
   * release} opens, as a replace does while the topology changes, counting {@code committing} down
   * when it starts; later writes run at once. Returns how many writes were issued.
   */
  private AtomicInteger hangFirstCommit(
      ExecutorService replicas, CountDownLatch committing, CountDownLatch release) {
    AtomicInteger commits = new AtomicInteger();
    node.commitExecutor =
        task -> {
          if (commits.incrementAndGet() == 1) {
            replicas.execute(
                () -> {
                  committing.countDown();
                  try {
                    release.await(10, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  task.run();
                });
          } else {
            task.run();
          }
        };
    return commits;
  }

  /**
   * An engine on {@link #node} driven by {@code timer}, delivering the keys into {@code delivered}.
   */
  private ReminderEngine onTimer(ScheduledExecutorService timer, List<String> delivered) {
    this.timer = timer;
    return ReminderEngine.builder(node, node, node)
        .timer(timer)
        .delivery(fire -> delivered.add(fire.getKey()))
        .build();
  }

  /** A key of namespace {@code ns} whose segment is in [from, to) on {@link #node}. */
  private String keyInSegments(int from, int to) {
    for (int i = 0; ; i++) {
      int segment = node.segmentOf(ReminderId.of("ns", "k" + i).cacheKey());
      if (segment >= from && segment < to) {
        return "k" + i;
      }
    }
  }

  /** Waits up to 10 s for {@code condition}; fails the test if it does not come. */
  static void awaitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition met within 10 s").isLessThan(deadline);
      Thread.sleep(10);
    }
  }

  @Test
  void tick_deliveryThrows_reportsFailureAndOthersStillFire() {
    ReminderEngine engine =
        ReminderEngine.builder(node, node, node)
            .clock(clock)
            .listener(listener)
            .delivery(
                fire -> {
                  if (fire.getKey().equals("bad")) {
                    throw new IllegalStateException("observer failed");
                  }
                })
            .build();
    engine.start();
    Instant due = clock.now().plusSeconds(1);
    for (String key : List.of("a", "bad", "c")) {
      engine.set(ReminderSpec.once(ReminderId.of("ns", key), due, null));
    }
    clock.advance(Duration.ofSeconds(1));

    assertThat(engine.tick()).isEqualTo(3);
    assertThat(fired).extracting(ReminderFired::getKey).containsExactlyInAnyOrder("a", "c");
    assertThat(failed).extracting(ReminderFired::getKey).containsExactly("bad");
  }

  @Test
  void sweep_ownershipGainedWithoutNotification_firesWithinAScanInterval() {
    node.owner = false;
    ReminderEngine engine = engineOnNode().build();
    engine.start();
    engine.set(ReminderSpec.once(ReminderId.of("ns", "moved"), clock.now(), null));
    assertThat(engine.tick()).as("not the owner").isZero();

    // the segment moves here, but the topology notification is lost (or read too early)
    node.owner = true;
    clock.advance(EngineSettings.DEFAULTS.scanInterval());
    assertThat(engine.tick()).isOne();
    assertThat(fired).extracting(ReminderFired::getKey).containsExactly("moved");
  }

  @Test
  void tick_deliveryRefused_fireUndoneAndDeliveredOnceTheExecutorAcceptsAgain() {
    AtomicBoolean refuse = new AtomicBoolean(true);
    ReminderEngine engine =
        ReminderEngine.builder(node, node, node)
            .clock(clock)
            .listener(listener)
            .deliveryExecutor(
                task -> {
                  if (refuse.get()) {
                    throw new java.util.concurrent.RejectedExecutionException("suspended");
                  }
                  task.run();
                })
            .delivery(fire -> {})
            .build();
    engine.start();
    ReminderId id = ReminderId.of("ns", "refused");
    engine.set(ReminderSpec.once(id, clock.now(), null));

    assertThat(engine.tick()).as("committed, refused, undone").isZero();
    assertThat(engine.get(id))
        .hasValueSatisfying(r -> assertThat(r.state()).isEqualTo(ReminderState.PENDING));
    assertThat(fired).isEmpty();
    assertThat(failed).as("not a failed delivery: nothing was lost").isEmpty();

    refuse.set(false);
    clock.advance(EngineSettings.DEFAULTS.scanInterval());
    engine.tick();
    assertThat(fired).extracting(ReminderFired::getKey).containsExactly("refused");
    assertThat(engine.get(id))
        .hasValueSatisfying(r -> assertThat(r.state()).isEqualTo(ReminderState.FIRED));
  }

  @Test
  void tick_overdueBacklog_firesAtTheBackfillRate() {
    ReminderEngine engine =
        engineOnNode().settings(EngineSettings.DEFAULTS.withBackfillRatePerSecond(10)).build();
    Instant due = clock.now();
    for (int i = 0; i < 35; i++) {
      engine.set(ReminderSpec.once(ReminderId.of("ns", "r" + i), due, null));
    }
    clock.advance(Duration.ofHours(1));
    engine.start();

    assertThat(engine.tick()).isEqualTo(10);
    assertThat(engine.tick()).isZero();
    clock.advance(Duration.ofSeconds(1));
    assertThat(engine.tick()).isEqualTo(10);
    clock.advance(Duration.ofSeconds(2));
    assertThat(engine.tick()).isEqualTo(10);
    clock.advance(Duration.ofSeconds(1));
    assertThat(engine.tick()).isEqualTo(5);
    assertThat(fired).hasSize(35);
  }

  @Test
  void sweep_tombstoneOlderThanTtl_isArchivedThenRemoved() {
    ReminderEngine engine = engineOnNode().build();
    engine.start();
    engine.set(ReminderSpec.once(ReminderId.of("ns", "x"), clock.now().plusSeconds(1), null));
    engine.set(ReminderSpec.once(ReminderId.of("ns", "y"), clock.now().plusSeconds(5), null));
    clock.advance(Duration.ofSeconds(1));
    engine.cancel(ReminderId.of("ns", "y"));
    engine.tick();
    assertThat(node.size()).isEqualTo(2);

    clock.advance(EngineSettings.DEFAULT_TOMBSTONE_TTL.minusSeconds(1));
    engine.sweep();
    assertThat(purged).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    engine.sweep();

    assertThat(purged).extracting(r -> r.id().key()).containsExactlyInAnyOrder("x", "y");
    assertThat(node.size()).isZero();
  }

  @Test
  void sweep_archiveFails_tombstoneKeptAndArchivedAtALaterSweep() {
    ReminderEngine engine = engineOnNode().build();
    engine.start();
    engine.set(ReminderSpec.once(ReminderId.of("ns", "z"), clock.now().plusSeconds(5), null));
    engine.cancel(ReminderId.of("ns", "z"));
    clock.advance(EngineSettings.DEFAULT_TOMBSTONE_TTL);
    archiveFails = true;

    engine.sweep();
    assertThat(purged).isEmpty();
    assertThat(node.size()).as("not archived, so kept").isEqualTo(1);

    archiveFails = false;
    engine.sweep();
    assertThat(purged).extracting(r -> r.id().key()).containsExactly("z");
    assertThat(node.size()).isZero();
  }

  @Test
  void tick_versionsMintedBeforeStart_checkedByTheGuardInOneBatch_outlivedBuriedNotFired() {
    Instant due = clock.now().plusSeconds(30);
    ReminderId back = ReminderId.of("ns", "back");
    long backVersion = storedBeforeStart(back, due);
    storedBeforeStart(ReminderId.of("ns", "kept"), due);
    List<List<ResurrectionGuard.Candidate>> asked = new CopyOnWriteArrayList<>();
    ReminderEngine engine =
        engineOnNode()
            .resurrectionGuard(
                candidates -> {
                  asked.add(candidates);
                  return Map.of(back, ReminderState.FIRED);
                })
            .build();
    engine.start();
    // written while this node runs, well past any clock skew: never asked about
    clock.advance(Duration.ofSeconds(10));
    engine.set(ReminderSpec.once(ReminderId.of("ns", "new"), due, null));
    clock.set(due);

    assertThat(engine.tick()).isEqualTo(2);

    assertThat(fired).extracting(ReminderFired::getKey).containsExactlyInAnyOrder("kept", "new");
    assertThat(asked).hasSize(1);
    assertThat(asked.get(0))
        .extracting(c -> c.id().key())
        .containsExactlyInAnyOrder("back", "kept");
    ReminderRecord buried = engine.get(back).orElseThrow();
    assertThat(buried.state()).isEqualTo(ReminderState.FIRED);
    assertThat(buried.version()).isEqualTo(backVersion);
  }

  @Test
  void tick_guardCannotAnswer_firesUnchecked() {
    Instant due = clock.now().plusSeconds(1);
    storedBeforeStart(ReminderId.of("ns", "unchecked"), due);
    ReminderEngine engine =
        engineOnNode()
            .resurrectionGuard(
                candidates -> {
                  throw new IllegalStateException("audit database down");
                })
            .build();
    engine.start();
    clock.set(due);

    assertThat(engine.tick()).isOne();
    assertThat(fired).extracting(ReminderFired::getKey).containsExactly("unchecked");
  }

  /**
   * Stores a reminder as an earlier run of this node left it in the file store (set by an engine
   * that is gone); returns its version.
   */
  private long storedBeforeStart(ReminderId id, Instant due) {
    ReminderEngine previousLife =
        ReminderEngine.builder(node, node, node).clock(clock).delivery(fire -> {}).build();
    return previousLife.set(ReminderSpec.once(id, due, null)).record().version();
  }

  /** An engine on the in-memory node, driven by hand, reporting to {@link #listener}. */
  private ReminderEngineBuilder engineOnNode() {
    return ReminderEngine.builder(node, node, node)
        .clock(clock)
        .listener(listener)
        .delivery(fire -> {});
  }
}
