package io.belfry.reminders.fire;

import io.belfry.reminders.schedule.Clock;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The automatic scheduler's one wake-up on the timer, at the earliest time anything can happen:
 * moved earlier when an earlier time arrives, never later while it is pending.
 *
 * <p>Not thread-safe: used only under the scheduler's lock.
 */
final class WakeUp {

  // The scheduler's log category, as before these classes were split out of it.
  private static final Logger LOG = Logger.getLogger(Scheduler.class);

  private final ScheduledExecutorService timer;
  private final Clock clock;
  private final EngineSettings settings;
  private final Runnable run;
  private ScheduledFuture<?> pending;
  private long pendingAt = Long.MAX_VALUE;

  WakeUp(ScheduledExecutorService timer, Clock clock, EngineSettings settings, Runnable run) {
    this.timer = timer;
    this.clock = clock;
    this.settings = settings;
    this.run = run;
  }

  /**
   * Called by a run at {@code now}: a wake-up due by then is this run (or is about to start and
   * will find nothing), so it is forgotten, and the next {@link #at} schedules the next one instead
   * of trusting a future that is running.
   */
  void passed(long now) {
    if (pendingAt <= now) {
      pending = null;
      pendingAt = Long.MAX_VALUE;
    }
  }

  /** Wakes the scheduler at {@code at}, unless a pending wake-up comes no later. */
  void at(long at) {
    if (pending != null && !pending.isDone() && pendingAt <= at) {
      return;
    }
    cancel();
    // Never further out than one scan interval: the sweep runs that often anyway, and a cancelled
    // task stays in the managed executor's queue until its time (it does not remove on cancel),
    // holding this scheduler and through it the deployment's class loader. An hour-away wake-up
    // pinned every undeployed deployment in memory for that hour.
    long now = clock.millis();
    long delay = Math.min(Math.max(0, at - now), settings.scanInterval().toMillis());
    pendingAt = now + delay;
    try {
      pending = timer.schedule(run, delay, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      LOG.debugf("BELFRY-0307 Timer rejected the wake-up; stopping?");
    }
  }

  void cancel() {
    if (pending != null) {
      pending.cancel(false);
      pending = null;
    }
    pendingAt = Long.MAX_VALUE;
  }
}
