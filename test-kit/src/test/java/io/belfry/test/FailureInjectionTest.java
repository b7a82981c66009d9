package io.belfry.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.Reminder;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.ReminderStatus;
import io.belfry.reminders.fire.RetryPolicy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Observers that throw: no retry at most once; retries, then a dead letter, at least once. */
class FailureInjectionTest {

  /** Three attempts, 10 s then 20 s apart before jitter (equal jitter: half to all of it). */
  private static final RetryPolicy THREE_ATTEMPTS =
      new RetryPolicy(3, Duration.ofSeconds(10), 2.0, Duration.ofMinutes(1));

  @RegisterExtension
  static final BelfryExtension BELFRY =
      new BelfryExtension(VirtualBelfry.builder().retryPolicy(THREE_ATTEMPTS));

  @Test
  void atMostOnce_observerThrows_deliveredOnce_notRetried(VirtualBelfry belfry) {
    belfry.observe(
        VirtualBelfry.DEFAULT_NAMESPACE,
        fire -> {
          throw new IllegalStateException("mail server down");
        });
    belfry.reminders().setAfter("k", Duration.ofMinutes(1), null);

    belfry.advanceBy(Duration.ofHours(1));

    assertThat(belfry.fires().single("k").getAttempt()).isEqualTo(1);
    assertThat(belfry.fires().failures())
        .singleElement()
        .satisfies(f -> assertThat(f.error()).hasMessage("mail server down"));
    assertThat(belfry.reminders().get("k")).isEmpty();
  }

  @Test
  void atLeastOnce_observerFailsTwice_retriedWithTheSameFence_thenDone(VirtualBelfry belfry) {
    AtomicInteger calls = new AtomicInteger();
    belfry.observe(
        VirtualBelfry.DEFAULT_NAMESPACE,
        fire -> {
          if (calls.incrementAndGet() < 3) {
            throw new IllegalStateException("attempt " + fire.getAttempt() + " fails");
          }
        });
    Reminder set =
        belfry
            .reminders()
            .set(
                ReminderRequest.key("invoice-17")
                    .after(Duration.ofMinutes(1))
                    .delivery(DeliveryMode.AT_LEAST_ONCE)
                    .build());

    belfry.advanceBy(Duration.ofMinutes(1));
    assertThat(belfry.fires().count("invoice-17")).isEqualTo(1);
    belfry.advanceBy(Duration.ofSeconds(4));
    assertThat(belfry.fires().count("invoice-17")).as("no retry before half the back-off").isOne();

    belfry.advanceBy(Duration.ofMinutes(5));

    assertThat(belfry.fires().of("invoice-17"))
        .extracting(ReminderFired::getAttempt, ReminderFired::getFence)
        .containsExactly(tuple(1, set.version()), tuple(2, set.version()), tuple(3, set.version()));
    List<ReminderFired> fires = belfry.fires().of("invoice-17");
    assertThat(Duration.between(fires.get(0).getFiredAt(), fires.get(1).getFiredAt()))
        .isBetween(Duration.ofSeconds(5), Duration.ofSeconds(10));
    assertThat(Duration.between(fires.get(1).getFiredAt(), fires.get(2).getFiredAt()))
        .isBetween(Duration.ofSeconds(10), Duration.ofSeconds(20));
    assertThat(belfry.reminders().get("invoice-17")).isEmpty();
    belfry.fires().assertNoneEarly();
  }

  @Test
  void atLeastOnce_observerAlwaysFails_deadLetter_redeliveredWithTheSameFence(
      VirtualBelfry belfry) {
    AtomicInteger failuresLeft = new AtomicInteger(3);
    belfry.observe(
        VirtualBelfry.DEFAULT_NAMESPACE,
        fire -> {
          if (failuresLeft.getAndDecrement() > 0) {
            throw new IllegalStateException("down");
          }
        });
    long fence =
        belfry
            .reminders()
            .set(
                ReminderRequest.key("k")
                    .after(Duration.ofMinutes(1))
                    .delivery(DeliveryMode.AT_LEAST_ONCE)
                    .build())
            .version();

    belfry.advanceBy(Duration.ofHours(1));

    assertThat(belfry.fires().count("k")).isEqualTo(3);
    Reminder deadLetter = belfry.reminders().get("k").orElseThrow();
    assertThat(deadLetter.state()).isEqualTo(ReminderStatus.DEAD_LETTER);
    assertThat(deadLetter.attempts()).isEqualTo(3);
    assertThat(deadLetter.lastError()).contains("down");

    belfry.reminders().redeliver(VirtualBelfry.DEFAULT_NAMESPACE, "k");
    belfry.fireDue();

    ReminderFired redelivered = belfry.fires().of("k").get(3);
    assertThat(redelivered.getFence()).isEqualTo(fence);
    assertThat(redelivered.getAttempt()).isEqualTo(1);
    assertThat(belfry.reminders().get("k")).isEmpty();
  }
}
