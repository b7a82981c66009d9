package io.belfry.reminders.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.Reminder;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.ReminderStatus;
import io.belfry.reminders.api.Reminders;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * At-least-once delivery on the provisioned server, to the application's CDI observer: a failing
 * observer is retried with back-off, then dead-lettered; an operator redelivers the dead letter.
 * The namespace retries three times from 200 ms (arquillian.xml).
 */
@ExtendWith(ArquillianExtension.class)
class AtLeastOnceIT {

  private static final Duration WAIT = Duration.ofSeconds(20);

  @Deployment
  static WebArchive deployment() {
    return EngineDeployments.application(
        "at-least-once-it", AtLeastOnceIT.class, FireRecorder.class);
  }

  @Inject Reminders reminders;

  @Inject FireRecorder recorder;

  @Test
  void failingObserver_retriedWithBackOff_thenDeadLettered_thenRedeliveredWithSameFence()
      throws Exception {
    String key = FireRecorder.SICK_PREFIX + UUID.randomUUID();
    Reminder set =
        reminders.set(
            ReminderRequest.key(key)
                .after(Duration.ofMillis(200))
                .delivery(DeliveryMode.AT_LEAST_ONCE)
                .build());

    Reminder deadLetter = awaitState(key, ReminderStatus.DEAD_LETTER);
    List<ReminderFired> attempts = recorder.attempts(key);
    assertEquals(List.of(1, 2, 3), attempts.stream().map(ReminderFired::getAttempt).toList());
    assertTrue(attempts.stream().allMatch(f -> f.getFence() == set.version()), "one fence");
    for (int i = 1; i < attempts.size(); i++) {
      Duration pause =
          Duration.between(attempts.get(i - 1).getFiredAt(), attempts.get(i).getFiredAt());
      // back-off of 200 ms, then 400 ms, each jittered into its upper half
      assertTrue(pause.toMillis() >= 100L * i, "pause before attempt " + (i + 1) + ": " + pause);
    }
    assertEquals(3, deadLetter.attempts());
    assertNotNull(deadLetter.lastError());
    assertTrue(deadLetter.lastError().contains("fails on purpose"), deadLetter.lastError());
    assertTrue(recorder.fires(key).isEmpty(), "no attempt succeeded");

    recorder.heal(key);
    reminders.redeliver(FireRecorder.NAMESPACE, key);

    assertTrue(recorder.awaitFires(key, 1, WAIT), "delivered after the redelivery");
    ReminderFired delivered = recorder.fires(key).get(0);
    assertEquals(set.version(), delivered.getFence());
    assertEquals(1, delivered.getAttempt());
    awaitGone(key);
  }

  @Test
  void healthyObserver_deliveredOnceAtFirstAttempt() throws Exception {
    String key = "alo-" + UUID.randomUUID();
    reminders.set(
        ReminderRequest.key(key)
            .after(Duration.ofMillis(200))
            .delivery(DeliveryMode.AT_LEAST_ONCE)
            .build());

    assertTrue(recorder.awaitFires(key, 1, WAIT), "delivered");
    awaitGone(key);
    assertEquals(1, recorder.attempts(key).size());
    assertEquals(1, recorder.fires(key).get(0).getAttempt());
  }

  private Reminder awaitState(String key, ReminderStatus state) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    Optional<Reminder> current = reminders.get(FireRecorder.NAMESPACE, key);
    while (current.map(r -> r.state() != state).orElse(true) && System.nanoTime() < deadline) {
      Thread.sleep(50);
      current = reminders.get(FireRecorder.NAMESPACE, key);
    }
    assertEquals(state, current.map(Reminder::state).orElse(null), "state of " + key);
    return current.get();
  }

  /** Once committed, a one-shot is a tombstone, which get() does not show. */
  private void awaitGone(String key) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (reminders.get(FireRecorder.NAMESPACE, key).isPresent() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertTrue(reminders.get(FireRecorder.NAMESPACE, key).isEmpty(), key + " committed");
  }
}
