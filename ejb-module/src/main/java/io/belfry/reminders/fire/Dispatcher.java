package io.belfry.reminders.fire;

import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.model.HybridLogicalClock;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.schedule.Clock;
import io.belfry.reminders.store.OwnerContext;
import io.belfry.reminders.store.ReminderStore;
import io.belfry.reminders.store.StoredReminder;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jboss.logging.Logger;

/**
 * After the lock: announces each commit of a run to the {@link EngineListener} and hands its fire
 * to the delivery executor, at most once (delivered, or logged and announced as failed) or at least
 * once under a lease ({@link Leases}). A fire the executor refuses is undone, so that it fires
 * again rather than being lost.
 *
 * <p>Called after the scheduler's lock is released; deliveries run on the delivery executor.
 */
final class Dispatcher {

  // The scheduler's log category, as before these classes were split out of it.
  private static final Logger LOG = Logger.getLogger(Scheduler.class);

  private final ReminderStore store;
  private final HybridLogicalClock versions;
  private final Clock clock;
  private final EngineSettings settings;
  private final Executor deliveryExecutor;
  private final Delivery delivery;
  private final EngineListener listener;
  private final Leases leases;
  private final OwnerContext context;

  /** After the delivery executor refused a fire: no new commits before this time. */
  private volatile long deliveryRefusedUntil = Long.MIN_VALUE;

  Dispatcher(
      ReminderStore store,
      HybridLogicalClock versions,
      Clock clock,
      EngineSettings settings,
      Executor deliveryExecutor,
      Delivery delivery,
      EngineListener listener,
      Leases leases,
      OwnerContext context) {
    this.store = store;
    this.versions = versions;
    this.clock = clock;
    this.settings = settings;
    this.deliveryExecutor = deliveryExecutor;
    this.delivery = delivery;
    this.listener = listener;
    this.leases = leases;
    this.context = context;
  }

  /** No new commits before this time: the delivery executor refused a fire. */
  long refusedUntil() {
    return deliveryRefusedUntil;
  }

  /**
   * Announces {@code commit} and hands its fire, if it has one, to delivery; returns 1 if it did, 0
   * if there was nothing to deliver or the executor refused it (the fire then undone).
   */
  int dispatch(Firing.Attempt commit) {
    if (commit.decision() != null && commit.decision().skipped() > 0) {
      announce(() -> listener.skipped(commit.due(), commit.decision().skipped()));
    }
    if (commit.successor().state() == ReminderState.DEAD_LETTER) {
      announce(() -> listener.deadLettered(commit.successor()));
    }
    ReminderFired fire = commit.fire();
    if (fire == null) {
      return 0;
    }
    // A lease is renewed from its commit on, not from when a delivery thread picks it up: a
    // delivery queued behind slow ones must not be taken over while it waits.
    Leases.Flight flight =
        commit.successor().state() == ReminderState.DELIVERING
            ? leases.begin(commit.successor())
            : null;
    Runnable task = flight != null ? () -> deliverLeased(fire, flight) : () -> deliver(fire);
    try {
      deliveryExecutor.execute(task);
      return 1;
    } catch (RejectedExecutionException e) {
      if (flight != null) {
        leases.abandon(flight);
      }
      deliveryRefusedUntil = clock.millis() + settings.scanInterval().toMillis();
      if (undo(commit)) {
        LOG.warnf(
            "BELFRY-0313 Delivery of %s:%s refused (%s): the fire is undone, the reminder stays"
                + " due and fires here or on the next owner",
            fire.getNamespace(), fire.getKey(), e.getMessage());
        return 0;
      }
      LOG.errorf(e, "BELFRY-0308 Delivery of %s:%s rejected", fire.getNamespace(), fire.getKey());
      announce(() -> listener.deliveryFailed(fire, e));
      return 1;
    }
  }

  /**
   * Puts back the version a commit replaced, if the entry is still exactly what the commit wrote: a
   * fire that no executor will deliver (a graceful shutdown refuses new tasks before the engine
   * stops) is then not lost but fires again, here or on the node that takes over. Returns whether
   * it was put back.
   */
  private boolean undo(Firing.Attempt commit) {
    try {
      ReminderRecord written = commit.successor();
      // Put back under a version above the successor's, not the version it replaced: an older
      // version loses to the successor wherever the two meet (VersionMerge), and arm() lets no
      // older version replace the successor's hint, so a recurring reminder waited for its next
      // occurrence's time (the stale hint) before the put-back one was armed and fired.
      ReminderRecord restored =
          commit.due().reissued(versions.mintAfter(written.version()), clock.millis());
      // Compared as a record: the stored bytes carry the commit's write stamp as well.
      Optional<StoredReminder> live = store.get(written.id());
      return live.isPresent()
          && live.get().record().equals(written)
          && store.replace(live.get(), restored);
    } catch (RuntimeException e) {
      LOG.debugf(e, "BELFRY-0314 Could not undo the fire of %s", commit.due().id());
      return false;
    }
  }

  private void deliver(ReminderFired fire) {
    ClassLoader previous = context.enter();
    try {
      delivery.deliver(fire);
    } catch (Throwable e) {
      LOG.errorf(
          e,
          "BELFRY-0310 Delivery of %s:%s (fence %d) failed",
          fire.getNamespace(),
          fire.getKey(),
          fire.getFence());
      announce(() -> listener.deliveryFailed(fire, e));
      return;
    } finally {
      context.leave(previous);
    }
    announce(() -> listener.fired(fire));
  }

  /**
   * At-least-once: delivers under the lease of {@code flight}, then commits the outcome; see {@link
   * Leases}.
   */
  private void deliverLeased(ReminderFired fire, Leases.Flight flight) {
    announce(() -> listener.delivering(fire));
    ClassLoader previous = context.enter();
    Throwable failure = null;
    try {
      delivery.deliver(fire);
    } catch (Throwable e) {
      failure = e;
      LOG.warnf(
          e,
          "BELFRY-0316 Attempt %d of %s:%s (fence %d) failed",
          fire.getAttempt(),
          fire.getNamespace(),
          fire.getKey(),
          fire.getFence());
    } finally {
      context.leave(previous);
    }
    Leases.Settlement settled =
        failure == null ? leases.succeeded(flight) : leases.failed(flight, failure);
    Throwable cause = failure;
    switch (settled.outcome()) {
      case COMMITTED -> {
        announce(() -> listener.delivered(fire));
        if (settled.passedOver() > 0) {
          announce(() -> listener.skipped(flight.lease, settled.passedOver()));
        }
      }
      case RETRY_SCHEDULED ->
          announce(
              () ->
                  listener.retryScheduled(
                      fire, cause, settled.written().progress().wakeAtMillis()));
      case DEAD_LETTERED -> announce(() -> listener.deadLettered(settled.written()));
      default ->
          // LOST: replaced, cancelled or taken over meanwhile; UNSETTLED: the lease's expiry will
          // deliver it again. Either way this attempt's outcome is not the reminder's.
          LOG.debugf(
              "BELFRY-0317 Outcome of attempt %d of %s:%s not committed: %s",
              fire.getAttempt(), fire.getNamespace(), fire.getKey(), settled.outcome());
    }
  }

  private static void announce(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      LOG.warnf(e, "BELFRY-0311 Engine listener failed");
    }
  }
}
