package io.belfry.reminders.fire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ReminderNotFoundException;
import io.belfry.reminders.api.Schedule;
import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.engine.ReminderEngineBuilder;
import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.schedule.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * At-least-once delivery on one in-memory node, driven by hand: leases, retries with back-off, dead
 * letters, redelivery by an operator, expired leases and their renewal.
 */
class AtLeastOnceTest {

  private static final Instant T0 = Instant.parse("2026-11-22T09:00:00Z");
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final RetryPolicy RETRIES =
      new RetryPolicy(3, Duration.ofSeconds(1), 2.0, Duration.ofSeconds(10));
  private static final ReminderId ID = ReminderId.of("ns", "job");

  private final InMemoryNode node = new InMemoryNode();
  private final SettableClock clock = new SettableClock(T0);
  private final List<ReminderFired> attempts = new CopyOnWriteArrayList<>();
  private final List<String> activity = new CopyOnWriteArrayList<>();
  private final List<Long> retryAt = new CopyOnWriteArrayList<>();
  private ExecutorService deliveryThreads;

  private final EngineListener listener =
      new EngineListener() {
        @Override
        public void delivering(ReminderFired fire) {
          activity.add("DELIVERING " + fire.getAttempt());
        }

        @Override
        public void delivered(ReminderFired fire) {
          activity.add("DELIVERED " + fire.getAttempt());
        }

        @Override
        public void retryScheduled(ReminderFired fire, Throwable failure, long at) {
          activity.add("RETRY_SCHEDULED " + fire.getAttempt());
          retryAt.add(at);
        }

        @Override
        public void deadLettered(ReminderRecord deadLetter) {
          activity.add("DEAD_LETTERED " + deadLetter.attempts());
        }

        @Override
        public void fired(ReminderFired fire) {
          activity.add("FIRED");
        }

        @Override
        public void deliveryFailed(ReminderFired fire, Throwable failure) {
          activity.add("DELIVERY_FAILED");
        }
      };

  @AfterEach
  void stopThreads() {
    if (deliveryThreads != null) {
      deliveryThreads.shutdownNow();
    }
  }

  @Test
  void failingObserver_retriedWithBackOffThenDeadLettered_sameFenceEveryAttempt() {
    ReminderEngine engine =
        engine(
                fire -> {
                  attempts.add(fire);
                  throw new IllegalStateException("handler down");
                })
            .build();
    engine.start();
    long version = set(engine, ReminderSpec.once(ID, T0.plusSeconds(5), null)).version();

    clock.set(T0.plusSeconds(5));
    assertThat(engine.tick()).isOne();
    assertThat(state()).isEqualTo(ReminderState.PENDING);
    assertThat(record().attempts()).isEqualTo(1);
    assertThat(record().progress().lastError()).isEqualTo("IllegalStateException: handler down");
    // first back-off: 1 s, with equal jitter somewhere in [0.5 s, 1 s]
    long firstRetry = retryAt.get(0);
    assertThat(firstRetry - clock.millis()).isBetween(500L, 1_000L);

    clock.set(Instant.ofEpochMilli(firstRetry - 1));
    assertThat(engine.tick()).as("not before the back-off").isZero();
    clock.set(Instant.ofEpochMilli(firstRetry));
    assertThat(engine.tick()).isOne();
    long secondRetry = retryAt.get(1);
    // second back-off: 2 s, jittered into [1 s, 2 s]
    assertThat(secondRetry - clock.millis()).isBetween(1_000L, 2_000L);

    clock.set(Instant.ofEpochMilli(secondRetry));
    assertThat(engine.tick()).isOne();

    assertThat(state()).isEqualTo(ReminderState.DEAD_LETTER);
    assertThat(record().attempts()).isEqualTo(3);
    assertThat(attempts).extracting(ReminderFired::getAttempt).containsExactly(1, 2, 3);
    assertThat(attempts).extracting(ReminderFired::getFence).containsOnly(version);
    assertThat(activity)
        .containsExactly(
            "DELIVERING 1",
            "RETRY_SCHEDULED 1",
            "DELIVERING 2",
            "RETRY_SCHEDULED 2",
            "DELIVERING 3",
            "DEAD_LETTERED 3");

    // a dead letter stays: no sweep purges it, nothing re-arms it
    clock.set(T0.plus(Duration.ofDays(30)));
    engine.sweep();
    assertThat(engine.tick()).isZero();
    assertThat(state()).isEqualTo(ReminderState.DEAD_LETTER);
  }

  @Test
  void redeliver_deadLetter_deliveredAgainWithSameFenceAndFreshAttempts() {
    boolean[] healthy = {false};
    ReminderEngine engine =
        engine(
                fire -> {
                  attempts.add(fire);
                  if (!healthy[0]) {
                    throw new IllegalStateException("handler down");
                  }
                })
            .atLeastOnce(new AtLeastOnceSettings(LEASE, ns -> oneAttempt()))
            .build();
    engine.start();
    long version = set(engine, ReminderSpec.once(ID, T0.plusSeconds(1), null)).version();
    clock.set(T0.plusSeconds(1));
    engine.tick();
    assertThat(state()).isEqualTo(ReminderState.DEAD_LETTER);

    healthy[0] = true;
    ReminderRecord pending = engine.redeliver(ID);
    assertThat(pending.state()).isEqualTo(ReminderState.PENDING);
    assertThat(pending.attempts()).isZero();
    assertThat(engine.tick()).isOne();

    assertThat(state()).isEqualTo(ReminderState.FIRED);
    assertThat(attempts).extracting(ReminderFired::getFence).containsOnly(version);
    assertThat(attempts).extracting(ReminderFired::getAttempt).containsExactly(1, 1);
    assertThatThrownBy(() -> engine.redeliver(ID))
        .as("only a dead letter can be redelivered")
        .isInstanceOf(ReminderNotFoundException.class);
  }

  @Test
  void cancel_deadLetter_becomesCancelledTombstone() {
    ReminderEngine engine =
        engine(
                fire -> {
                  throw new IllegalStateException("down");
                })
            .atLeastOnce(new AtLeastOnceSettings(LEASE, ns -> oneAttempt()))
            .build();
    engine.start();
    set(engine, ReminderSpec.once(ID, T0, null));
    engine.tick();
    assertThat(state()).isEqualTo(ReminderState.DEAD_LETTER);

    assertThat(engine.cancel(ID).state()).isEqualTo(ReminderState.CANCELLED);
    assertThat(state()).isEqualTo(ReminderState.CANCELLED);
  }

  @Test
  void success_recurring_commitsNextOccurrenceAfterDelivery() {
    ReminderEngine engine = engine(attempts::add).build();
    engine.start();
    ReminderSpec every =
        new ReminderSpec(
            ID,
            new Schedule.Every(Duration.ofMinutes(1)),
            T0.plusSeconds(60),
            null,
            null,
            null,
            null,
            DeliveryMode.AT_LEAST_ONCE,
            null,
            null);
    long first = engine.set(every).record().version();
    clock.set(T0.plusSeconds(60));
    assertThat(engine.tick()).isOne();

    ReminderRecord next = record();
    assertThat(next.state()).isEqualTo(ReminderState.PENDING);
    assertThat(next.occurrence()).isEqualTo(2);
    assertThat(next.progress()).as("a committed occurrence leaves no progress").isNull();
    assertThat(next.nextDueMillis()).isEqualTo(T0.plusSeconds(120).toEpochMilli());
    assertThat(activity).containsExactly("DELIVERING 1", "DELIVERED 1");

    clock.set(T0.plusSeconds(120));
    assertThat(engine.tick()).isOne();
    assertThat(attempts).extracting(ReminderFired::getFence).containsExactly(first, next.version());
    assertThat(attempts).extracting(ReminderFired::getOccurrence).containsExactly(1L, 2L);
  }

  @Test
  void holderDiesMidDelivery_leaseExpires_redeliveredOnceWithSameFenceAndNextAttempt() {
    // The first life's deliveries are accepted and never run: the node died right after the lease.
    List<Runnable> swallowed = new ArrayList<>();
    ReminderEngine firstLife = engine(attempts::add).deliveryExecutor(swallowed::add).build();
    firstLife.start();
    long version = set(firstLife, ReminderSpec.once(ID, T0.plusSeconds(1), null)).version();
    clock.set(T0.plusSeconds(1));
    assertThat(firstLife.tick()).isOne();
    assertThat(state()).isEqualTo(ReminderState.DELIVERING);
    assertThat(record().progress().leaseHolder()).isEqualTo("node-a");
    firstLife.stop();

    node.name = "node-b";
    ReminderEngine survivor = engine(attempts::add).build();
    survivor.start();
    clock.set(T0.plusSeconds(1).plus(LEASE).minusMillis(1));
    assertThat(survivor.tick()).as("the lease still holds").isZero();
    clock.set(T0.plusSeconds(1).plus(LEASE));
    assertThat(survivor.tick()).isOne();
    clock.set(T0.plusSeconds(1).plus(LEASE).plus(LEASE));
    assertThat(survivor.tick()).isZero();

    assertThat(attempts).hasSize(1);
    assertThat(attempts.get(0).getFence()).isEqualTo(version);
    assertThat(attempts.get(0).getAttempt()).isEqualTo(2);
    assertThat(state()).isEqualTo(ReminderState.FIRED);
  }

  @Test
  void leaseOfLastAttemptExpires_deadLettered() {
    List<Runnable> swallowed = new ArrayList<>();
    ReminderEngine firstLife =
        engine(attempts::add)
            .deliveryExecutor(swallowed::add)
            .atLeastOnce(new AtLeastOnceSettings(LEASE, ns -> oneAttempt()))
            .build();
    firstLife.start();
    set(firstLife, ReminderSpec.once(ID, T0, null));
    firstLife.tick();
    firstLife.stop();

    ReminderEngine secondLife =
        engine(attempts::add)
            .atLeastOnce(new AtLeastOnceSettings(LEASE, ns -> oneAttempt()))
            .build();
    secondLife.start();
    clock.set(T0.plus(LEASE));
    secondLife.tick();

    assertThat(state()).isEqualTo(ReminderState.DEAD_LETTER);
    assertThat(record().progress().lastError())
        .isEqualTo("the lease of attempt 1 held by node-a expired");
    assertThat(activity).containsExactly("DEAD_LETTERED 1");
  }

  @Test
  void slowDelivery_renewedLease_notDeliveredTwice() throws Exception {
    deliveryThreads = Executors.newSingleThreadExecutor();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ReminderEngine engine =
        engine(
                fire -> {
                  attempts.add(fire);
                  started.countDown();
                  release.await(10, TimeUnit.SECONDS);
                })
            .deliveryExecutor(deliveryThreads)
            .build();
    engine.start();
    set(engine, ReminderSpec.once(ID, T0, null));
    assertThat(engine.tick()).isOne();
    assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();

    // The handler runs for two lease lengths; the holder renews every third of one.
    for (int third = 1; third <= 6; third++) {
      clock.set(T0.plus(LEASE.dividedBy(3).multipliedBy(third)));
      engine.renewLeases();
      assertThat(engine.tick()).isZero();
    }
    assertThat(state()).isEqualTo(ReminderState.DELIVERING);
    release.countDown();
    awaitState(ReminderState.FIRED);
    // the flight ends after the commit the state shows: wait for the delivery task to finish
    deliveryThreads.shutdown();
    assertThat(deliveryThreads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

    assertThat(attempts).hasSize(1);
    assertThat(engine.deliveriesInFlight()).isZero();
  }

  @Test
  void deliveryQueuedBehindSlowOnes_leaseRenewedWhileItWaits_deliveredOnce() {
    // The delivery executor holds every task until the test runs it: deliveries wait in a queue.
    List<Runnable> queue = new ArrayList<>();
    ReminderEngine engine = engine(attempts::add).deliveryExecutor(queue::add).build();
    engine.start();
    long version = set(engine, ReminderSpec.once(ID, T0, null)).version();
    assertThat(engine.tick()).isOne();
    for (int third = 1; third <= 6; third++) {
      clock.set(T0.plus(LEASE.dividedBy(3).multipliedBy(third)));
      engine.renewLeases();
      assertThat(engine.tick()).as("a queued delivery's lease holds").isZero();
    }
    assertThat(queue).hasSize(1);
    queue.get(0).run();

    assertThat(attempts).extracting(ReminderFired::getAttempt).containsExactly(1);
    assertThat(attempts.get(0).getFence()).isEqualTo(version);
    assertThat(state()).isEqualTo(ReminderState.FIRED);
  }

  @Test
  void atMostOnce_failingObserver_notRetried() {
    ReminderEngine engine =
        engine(
                fire -> {
                  attempts.add(fire);
                  throw new IllegalStateException("down");
                })
            .build();
    engine.start();
    engine.set(ReminderSpec.once(ID, T0, null));
    engine.tick();
    assertThat(state()).isEqualTo(ReminderState.FIRED);
    clock.set(T0.plus(Duration.ofMinutes(10)));
    engine.tick();

    assertThat(attempts).hasSize(1);
    assertThat(activity).containsExactly("DELIVERY_FAILED");
  }

  private void awaitState(ReminderState expected) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (state() != expected && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(state()).isEqualTo(expected);
  }

  private static RetryPolicy oneAttempt() {
    return new RetryPolicy(1, Duration.ZERO, 1.0, Duration.ZERO);
  }

  /** Sets {@code spec} at least once. */
  private static ReminderRecord set(ReminderEngine engine, ReminderSpec spec) {
    return engine.set(spec.withDelivery(DeliveryMode.AT_LEAST_ONCE)).record();
  }

  private ReminderRecord record() {
    return node.get(ID).orElseThrow().record();
  }

  private ReminderState state() {
    return record().state();
  }

  private ReminderEngineBuilder engine(Delivery delivery) {
    return ReminderEngine.builder(node, node, node)
        .clock(clock)
        .listener(listener)
        .delivery(delivery)
        .atLeastOnce(new AtLeastOnceSettings(LEASE, ns -> RETRIES));
  }
}
