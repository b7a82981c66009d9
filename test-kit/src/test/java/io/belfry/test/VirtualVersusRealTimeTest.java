package io.belfry.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.engine.EngineReminders;
import io.belfry.reminders.engine.ListQuery;
import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.placement.CacheChangeFeed;
import io.belfry.reminders.schedule.Clock;
import io.belfry.reminders.store.InfinispanReminderStore;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.infinispan.Cache;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The kit's promise, checked: what virtual time fires is what the same engine fires in real time.
 * Each round draws random short schedules of every kind (one-shot, interval with a count or an end,
 * ISO repeat, cron in a zone), sets them on an engine running on the real clock with a timer, as on
 * a server, waits for them to end, and sets them again on {@link VirtualBelfry}; both must fire the
 * same sequence of (key, occurrence, due), and neither early.
 *
 * <p>The real-time run's clock is real elapsed time from an instant just before a cron match (a
 * minute boundary, some of them in daylight-saving gaps and overlaps), so that a cron match comes
 * within the round's second instead of up to a minute away.
 *
 * <p>Every reminder uses {@code FIRE_ALL}: in real time a fire may be a few milliseconds late, and
 * under the other policies lateness decides which positions are skipped, which no comparison can
 * make deterministic. The misfire policies themselves are checked on virtual time
 * (ScheduleKindsTest).
 */
class VirtualVersusRealTimeTest {

  private static final long SEED = 0x7157BE11L; // fixed, so a failure reproduces
  private static final int ROUNDS = 5;
  private static final int REMINDERS_PER_ROUND = 8;
  private static final String NAMESPACE = "compare";
  private static final Duration AWAIT = Duration.ofSeconds(30);

  /** Both runs compare what fires this long after the round's start (a round takes about 2 s). */
  private static final Duration HORIZON = Duration.ofSeconds(30);

  /** A cron expression, its zone, and one instant it matches. */
  record CronAnchor(String expression, ZoneId zone, Instant match) {}

  private static final List<CronAnchor> ANCHORS =
      List.of(
          new CronAnchor("* * * * *", ZoneOffset.UTC, Instant.parse("2026-06-10T12:34:00Z")),
          // Paris springs forward at 02:00 CET: 03:00 comes one second after 01:59:59
          new CronAnchor(
              "0 3 * * *", ZoneId.of("Europe/Paris"), Instant.parse("2026-03-29T01:00:00Z")),
          // 02:30 happens twice in Paris that night: the first, CEST
          new CronAnchor(
              "30 2 * * *", ZoneId.of("Europe/Paris"), Instant.parse("2026-10-25T00:30:00Z")),
          new CronAnchor(
              "0 3 * * *", ZoneId.of("America/New_York"), Instant.parse("2026-03-08T07:00:00Z")));

  /** What identifies a fire across the two runs. */
  record Fire(String key, long occurrence, Instant due) {
    static Fire of(ReminderFired fire) {
      return new Fire(fire.getKey(), fire.getOccurrence(), fire.getDueAt());
    }
  }

  private static ValidatorFactory validation;

  @BeforeAll
  static void startValidation() {
    validation = Validation.buildDefaultValidatorFactory();
  }

  @AfterAll
  static void closeValidation() {
    validation.close();
  }

  @Test
  void randomSchedules_virtualTimeFiresWhatRealTimeFires() throws InterruptedException {
    SplittableRandom random = new SplittableRandom(SEED);
    for (int round = 0; round < ROUNDS; round++) {
      CronAnchor anchor = ANCHORS.get(round % ANCHORS.size());
      // time enough for every set before the cron match, even on a busy machine
      Instant start = anchor.match().minusMillis(800 + random.nextInt(300));
      List<ReminderRequest> requests = randomRequests(random, round, start, anchor);

      // virtual first: it also loads and warms up what the first sets of a JVM are slow with
      List<Fire> virtual = virtualRun(start, requests);
      List<Fire> real = realTimeRun(start, requests);

      assertThat(virtual)
          .as("round %d from %s: %s", round, start, requests)
          .isNotEmpty()
          .containsExactlyElementsOf(real);
    }
  }

  private static List<ReminderRequest> randomRequests(
      SplittableRandom random, int round, Instant start, CronAnchor anchor) {
    List<ReminderRequest> requests = new ArrayList<>();
    for (int i = 0; i < REMINDERS_PER_ROUND; i++) {
      // first dues from 100 ms on; a set that comes later than its first due changes nothing
      // under FIRE_ALL
      Instant first = start.plusMillis(100 + random.nextInt(300));
      Duration interval = Duration.ofMillis(100 + random.nextInt(201));
      int count = 2 + random.nextInt(3);
      ReminderRequest.Builder request;
      String kind;
      switch (random.nextInt(5)) {
        case 0 -> {
          kind = "once";
          request = ReminderRequest.key(key(round, i, kind)).at(first);
        }
        case 1 -> {
          kind = "every-count";
          request =
              ReminderRequest.key(key(round, i, kind))
                  .at(first)
                  .every(interval)
                  .maxOccurrences(count);
        }
        case 2 -> {
          kind = "every-until";
          request =
              ReminderRequest.key(key(round, i, kind))
                  .at(first)
                  .every(interval)
                  .until(
                      first.plus(interval.multipliedBy(count - 1)).plusMillis(random.nextInt(50)));
        }
        case 3 -> {
          kind = "repeat";
          request =
              ReminderRequest.key(key(round, i, kind))
                  .repeat("R" + count + "/" + first + "/" + interval);
        }
        default -> {
          kind = "cron";
          request =
              ReminderRequest.key(key(round, i, kind)).cron(anchor.expression(), anchor.zone());
          // without a first time: the first match after now; with one: that time, then the match
          request =
              random.nextBoolean()
                  ? request.maxOccurrences(1)
                  : request.at(first).maxOccurrences(2);
        }
      }
      requests.add(request.misfire(MisfirePolicy.FIRE_ALL).payloadText(kind).build());
    }
    return requests;
  }

  private static String key(int round, int i, String kind) {
    return "r" + round + "-" + i + "-" + kind;
  }

  /** The engine as a server runs it: a timer, the real clock (shifted to {@code start}). */
  private static List<Fire> realTimeRun(Instant start, List<ReminderRequest> requests)
      throws InterruptedException {
    RealTimeFrom shifted = new RealTimeFrom(start);
    FireLog log = new FireLog();
    ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    Cache<String, String> cache = LocalReminderCache.create();
    ReminderEngine engine =
        ReminderEngine.builder(
                new InfinispanReminderStore(cache),
                new LocalReminderCache.SingleNode(),
                new CacheChangeFeed(cache))
            .clock(shifted)
            .timer(timer)
            .delivery(log::delivered)
            .build();
    try {
      engine.start();
      await(engine::recovered, "recovery");
      Reminders reminders =
          new EngineReminders(
              () -> engine,
              validation.usingContext().clockProvider(() -> javaClock(shifted)).getValidator(),
              () -> NAMESPACE,
              shifted);
      shifted.run();
      requests.forEach(reminders::set);
      // what remains due later (a daily cron's next day) is beyond both runs
      long horizon = start.plus(HORIZON).toEpochMilli();
      await(
          () -> armedRecords(engine).stream().allMatch(r -> r.armAtMillis() > horizon),
          () -> "every reminder to end; still armed: " + armedRecords(engine) + ", fired: " + log);
    } finally {
      engine.stop();
      timer.shutdown();
      // the last delivery may still be running on the timer's thread after its commit
      assertThat(timer.awaitTermination(AWAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
      LocalReminderCache.remove(cache);
    }
    log.assertNoneEarly();
    return sorted(log.all());
  }

  private static List<Fire> virtualRun(Instant start, List<ReminderRequest> requests) {
    try (VirtualBelfry belfry =
        VirtualBelfry.builder().startingAt(start).namespace(NAMESPACE).start()) {
      requests.forEach(belfry.reminders()::set);
      belfry.advanceBy(HORIZON);
      belfry.fires().assertNoneEarly();
      return sorted(belfry.fires().all());
    }
  }

  /** Fires at the same instant may be delivered in either order; compare them by key. */
  private static List<Fire> sorted(List<ReminderFired> fires) {
    return fires.stream()
        .map(Fire::of)
        .sorted(Comparator.comparing(Fire::due).thenComparing(Fire::key))
        .toList();
  }

  private static List<ReminderRecord> armedRecords(ReminderEngine engine) {
    return engine.list(new ListQuery(null, null, null, null, null, null, 1_000)).items().stream()
        .filter(r -> r.state().isArmed())
        .toList();
  }

  /**
   * A clock that reads {@code start} until {@link #run()}, then moves on in real time from there:
   * the engine starts (and this JVM warms up) before the round's time begins.
   */
  private static final class RealTimeFrom implements Clock {
    private final long start;
    private volatile long runningSinceNanos;
    private volatile boolean running;

    RealTimeFrom(Instant start) {
      this.start = start.toEpochMilli();
    }

    void run() {
      runningSinceNanos = System.nanoTime();
      running = true;
    }

    @Override
    public long millis() {
      return running ? start + (System.nanoTime() - runningSinceNanos) / 1_000_000 : start;
    }
  }

  private static java.time.Clock javaClock(Clock clock) {
    return new java.time.Clock() {
      @Override
      public Instant instant() {
        return clock.now();
      }

      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public java.time.Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException();
      }
    };
  }

  private static void await(BooleanSupplier condition, String what) {
    await(condition, () -> what);
  }

  private static void await(BooleanSupplier condition, Supplier<String> what) {
    long deadline = System.nanoTime() + AWAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Timed out waiting for " + what.get());
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
  }
}
