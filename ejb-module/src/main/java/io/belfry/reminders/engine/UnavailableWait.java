package io.belfry.reminders.engine;

import io.belfry.reminders.api.RemindersUnavailableException;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.store.StoreUnavailableException;
import java.time.Duration;

/**
 * How one write rides out a cluster that cannot take it for a moment. When a member dies or a
 * partition splits the view, the nodes install the new view one after the other; a write sent in
 * between can fail although the node will be in the majority a few milliseconds later. Pausing with
 * a growing backoff and trying again covers that; a node that stays cut off gives up at the
 * deadline with {@link RemindersUnavailableException}, acknowledging nothing.
 *
 * <p>Measured in real time, never on the engine's clock: the cluster settles in wall time even when
 * tests drive the engine with a settable clock.
 */
final class UnavailableWait {

  private static final long FIRST_PAUSE_MILLIS = 25;
  private static final long LONGEST_PAUSE_MILLIS = 400;

  private final ReminderId id;
  private final long deadlineNanos;
  private long pauseMillis = FIRST_PAUSE_MILLIS;

  UnavailableWait(ReminderId id, Duration patience) {
    this.id = id;
    this.deadlineNanos = System.nanoTime() + patience.toNanos();
  }

  /**
   * Pauses before the next attempt.
   *
   * @throws RemindersUnavailableException once the patience is spent, or if interrupted
   */
  void pauseAfter(StoreUnavailableException failure) {
    long remainingMillis = Duration.ofNanos(deadlineNanos - System.nanoTime()).toMillis();
    if (remainingMillis <= 0) {
      throw new RemindersUnavailableException(id.namespace(), id.key(), failure);
    }
    try {
      Thread.sleep(Math.min(pauseMillis, remainingMillis));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RemindersUnavailableException(id.namespace(), id.key(), failure);
    }
    pauseMillis = Math.min(pauseMillis * 2, LONGEST_PAUSE_MILLIS);
  }
}
