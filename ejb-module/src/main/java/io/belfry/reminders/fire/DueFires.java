package io.belfry.reminders.fire;

import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.schedule.TimeIndex;
import io.belfry.reminders.store.ReminderStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;

/**
 * One group's validate-and-commit: takes the hints due off the {@link OwnedIndex}, has {@link
 * Firing} validate each (a stale hint costs one local read) and issue its commit, then waits for
 * the group's commits together and collects the winners for the {@link Dispatcher}. Commits trigger
 * write events like any other write, which re-arm the next occurrence or drop the tombstone.
 *
 * <p><b>Backlog.</b> A fire later than {@link EngineSettings#backlogLateness()} (after downtime or
 * a long outage of a namespace) takes a token from a {@link TokenBucket} when it commits (a hint
 * found stale, or buried by the guard, takes none); when none is left the run stops and {@link
 * #blockedUntil()} is the next token, so a backlog drains at the configured rate while steady-state
 * fires are never held back.
 *
 * <p>Not thread-safe: used only under the scheduler's lock.
 */
final class DueFires {

  private final ReminderStore store;
  private final EngineSettings settings;
  private final Firing firing;
  private final OwnedIndex index;
  private final Recovery recovery;
  private final OutlivedVersions outlived;
  private final Dispatcher dispatcher;
  private final TokenBucket backlog;
  private long blockedUntil = Long.MAX_VALUE;

  DueFires(
      ReminderStore store,
      EngineSettings settings,
      Firing firing,
      OwnedIndex index,
      Recovery recovery,
      OutlivedVersions outlived,
      Dispatcher dispatcher) {
    this.store = store;
    this.settings = settings;
    this.firing = firing;
    this.index = index;
    this.recovery = recovery;
    this.outlived = outlived;
    this.dispatcher = dispatcher;
    this.backlog = new TokenBucket(settings.backfillRatePerSecond());
  }

  /**
   * When the last run was stopped short of what is due (backlog rate, refused deliveries, a store
   * refusing writes): nothing due can happen before then. {@code Long.MAX_VALUE} if it was not.
   */
  long blockedUntil() {
    return blockedUntil;
  }

  /**
   * Commits what is due at {@code now}, at most {@code limit} hints and within the backlog rate,
   * adding the commits to {@code commits}. Every hint's commit is issued before any is waited for
   * (group commit): a burst of due fires shares the cluster's round trips.
   *
   * @return whether it stopped at {@code limit} with more due: the caller dispatches these commits
   *     and comes back for the next group, so that delivery of one group overlaps the commit of the
   *     next
   */
  boolean commitDue(long now, int limit, List<Firing.Attempt> commits) {
    blockedUntil = Long.MAX_VALUE;
    long deliveryRefusedUntil = dispatcher.refusedUntil();
    if (now < deliveryRefusedUntil) {
      // the executor refused the last fire (a server suspending for shutdown, say): committing
      // more now would only undo them again
      blockedUntil = deliveryRefusedUntil;
      return false;
    }
    if (!store.acceptsWrites()) {
      // a minority partition refuses every commit: ask again after a pause, without trying each
      // due reminder (each refusal costs a logged stack trace in Infinispan)
      blockedUntil = now + Scheduler.FAILED_RETRY_PAUSE_MILLIS;
      return false;
    }
    TimeIndex hints = index.hints();
    List<Issued> issued = new ArrayList<>();
    List<TimeIndex.Entry> unchecked = new ArrayList<>();
    // A late hint needs a token, but only its commit spends one (in settle): a hint found stale, or
    // buried by the guard, fires nothing and must not slow the backlog down. Late hints whose
    // commit is under way or that wait for the guard hold a token meanwhile, so a run takes on no
    // more than it may fire.
    int held = 0;
    boolean rateBound = false;
    boolean full = false;
    while (true) {
      OptionalLong next = hints.nextDueMillis();
      if (next.isEmpty() || next.getAsLong() > now) {
        break;
      }
      if (issued.size() + unchecked.size() >= limit) {
        full = true;
        break;
      }
      boolean late = isBacklog(next.getAsLong(), now);
      if (late && !backlog.hasToken(now, held)) {
        rateBound = true;
        break;
      }
      TimeIndex.Entry hint = hints.pollDue(now, 1).get(0);
      held += late ? 1 : 0;
      if (hint.version() <= recovery.mintedBeforeStart()) {
        unchecked.add(hint);
      } else {
        issued.add(new Issued(hint, firing.attemptAsync(hint, now)));
      }
    }
    List<TimeIndex.Entry> retry = new ArrayList<>();
    if (!unchecked.isEmpty()) {
      Map<ReminderId, ReminderState> verdict = outlived.verdict(unchecked);
      for (TimeIndex.Entry hint : unchecked) {
        ReminderState end = verdict.get(hint.id());
        if (end == null) {
          issued.add(new Issued(hint, firing.attemptAsync(hint, now)));
        } else if (!outlived.bury(hint, end, now)) {
          retry.add(hint);
        }
      }
    }
    // In issue order, which is due order: the group's deliveries start in the order they were due.
    for (Issued one : issued) {
      settle(one.hint(), one.attempt().toCompletableFuture().join(), now, commits, retry);
    }
    // Re-armed a pause ahead, not at their due time: that time is past, so the wake-up would come
    // at once, and a store that refuses every write (a minority partition) would be asked again
    // and again, a thousand times a second per reminder.
    for (TimeIndex.Entry hint : retry) {
      if (!hints.contains(hint.id())) {
        hints.put(hint.id(), hint.version(), now + Scheduler.FAILED_RETRY_PAUSE_MILLIS);
      }
    }
    if (rateBound) {
      // after the held tokens the guard's burials left unspent: now, if any is left
      blockedUntil = backlog.nextTokenAt(now);
    }
    return full;
  }

  /** A hint whose commit was issued and is not yet waited for. */
  private record Issued(TimeIndex.Entry hint, CompletionStage<Firing.Attempt> attempt) {}

  /** Whether a fire due at {@code dueMillis} is late enough to be paced by the backlog rate. */
  private boolean isBacklog(long dueMillis, long now) {
    return dueMillis < now - settings.backlogLateness().toMillis();
  }

  private void settle(
      TimeIndex.Entry hint,
      Firing.Attempt attempt,
      long now,
      List<Firing.Attempt> commits,
      List<TimeIndex.Entry> retry) {
    switch (attempt.outcome()) {
      case COMMITTED -> {
        commits.add(attempt);
        if (isBacklog(hint.dueMillis(), now)) {
          backlog.tryAcquire(now); // available: commitDue checked it, counting the held ones
        }
      }
      case NOT_YET -> index.hints().put(hint.id(), hint.version(), attempt.dueMillis());
      // Put back after the loop, or this run would retry it at once, forever.
      case FAILED -> retry.add(hint);
      case NOT_OWNER -> {
        // The topology installed now names another primary, but this worker still arms the
        // segment: the change is not applied yet, or it was a passing one. Kept a pause ahead like
        // a failure; applying the topology drops it if the segment is gone. Dropped here, a
        // segment that stays would have this reminder back only when the sweep window reached it.
        if (index.owns(hint.id().cacheKey())) {
          retry.add(hint);
        }
      }
      default -> {}
    }
  }
}
