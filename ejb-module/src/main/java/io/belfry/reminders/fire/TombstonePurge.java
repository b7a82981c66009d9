package io.belfry.reminders.fire;

import io.belfry.reminders.store.OwnerContext;
import io.belfry.reminders.store.ReminderStore;
import io.belfry.reminders.store.StoredReminder;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Removes the tombstones the {@link Sweep} found past their TTL, after the listener has archived
 * them: a tombstone that cannot be archived stays. Off the firing thread, on the delivery executor,
 * one purge at a time: the archive may wait on a database, and while it does the next sweeps simply
 * find the same tombstones again.
 *
 * <p>Called after the scheduler's lock is released; thread-safe.
 */
final class TombstonePurge {

  // The scheduler's log category, as before these classes were split out of it.
  private static final Logger LOG = Logger.getLogger(Scheduler.class);

  private final ReminderStore store;
  private final EngineListener listener;
  private final Executor executor;
  private final OwnerContext context;
  private final AtomicBoolean purging = new AtomicBoolean();

  TombstonePurge(
      ReminderStore store, EngineListener listener, Executor executor, OwnerContext context) {
    this.store = store;
    this.listener = listener;
    this.executor = executor;
    this.context = context;
  }

  /** Hands {@code expired} to the executor, unless a purge is under way or there is none. */
  void submit(List<StoredReminder> expired) {
    if (!expired.isEmpty() && purging.compareAndSet(false, true)) {
      try {
        executor.execute(() -> purge(expired));
      } catch (RejectedExecutionException e) {
        purging.set(false);
        LOG.debugf(
            e, "BELFRY-0309 Purge of %d tombstones rejected; next sweep retries", expired.size());
      }
    }
  }

  /**
   * Archives expired tombstones, then removes each exactly as archived (a conditional remove: a
   * newer write in between wins).
   */
  private void purge(List<StoredReminder> expired) {
    ClassLoader previous = context.enter();
    try {
      listener.archive(expired.stream().map(StoredReminder::record).toList());
      for (StoredReminder tombstone : expired) {
        try {
          store.remove(tombstone);
        } catch (RuntimeException e) {
          LOG.debugf(e, "BELFRY-0309 Purge of %s failed; next sweep retries", tombstone);
        }
      }
    } catch (RuntimeException e) {
      LOG.warnf(
          "BELFRY-0312 %d expired tombstones not archived, kept until a later sweep: %s",
          expired.size(), e.toString());
    } finally {
      purging.set(false);
      context.leave(previous);
    }
  }
}
