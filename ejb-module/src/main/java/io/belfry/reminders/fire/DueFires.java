package io.belfry.reminders.fire;

import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.schedule.SegmentedTimeIndex;
import io.belfry.reminders.schedule.TimeIndex;
import io.belfry.reminders.store.ReminderStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * One group's validate-and-commit, in three steps so that nothing that waits on the cluster or the
 * database runs under the scheduler's lock:
 *
 * <ol>
 *   <li>{@link #takeDue} (under the lock): takes the hints due off the {@link OwnedIndex}, within
 *       the backlog rate;
 *   <li>{@link #commit} (without it): checks versions minted before this node started against the
 *       {@link ResurrectionGuard} ({@link OutlivedVersions}), has {@link Firing} validate each hint
 *       (a stale hint costs one local read) and issue its commit, every commit of the group before
 *       any is waited for (group commit), then waits for them in due order and hands each fire to
 *       the {@link Dispatcher} as soon as its own commit is acknowledged (pipelined delivery);
 *   <li>{@link #settle} (under the lock again): puts back what must be tried again and spends the
 *       backlog's tokens.
 * </ol>
 *
 * <p>Commits trigger write events like any other write, which re-arm the next occurrence or drop
 * the tombstone; they may be drained into the index while the group is out of it, so a hint put
 * back never replaces a newer one.
 *
 * <p><b>Backlog.</b> A fire later than {@link EngineSettings#backlogLateness()} (after downtime or
 * a long outage of a namespace) takes a token from a {@link TokenBucket} when it commits (a hint
 * found stale, or buried by the guard, takes none); when none is left the run stops and {@link
 * #blockedUntil()} is the next token, so a backlog drains at the configured rate while steady-state
 * fires are never held back. A group holds a token for each late hint while it is out of the index,
 * so that runs side by side take on no more than they may fire.
 *
 * <p><b>One attempt per key at a time.</b> While a group's commit of a key is undecided, the same
 * key may be armed again: the sweep reads the entry still pending, a topology change hands the
 * segment back, a write arrives. A second attempt would race the first one's conditional replace
 * from the same node, and Infinispan does not promise that only one of two such replaces wins in a
 * non-transactional cache while the topology changes (ISPN-3422). So a due hint of a key in flight
 * is held back, the newest one per key, and armed again when the group that has the key settles, by
 * which time the commit is decided: won (the hint held back is then stale and its run finds so),
 * lost, or failed (the retry re-reads).
 *
 * <p>{@link #takeDue} and {@link #settle} are called only under the scheduler's lock; a {@link
 * Group} belongs to the run that took it.
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

  // Guarded by the scheduler's lock.
  private long blockedUntil = Long.MAX_VALUE;
  private int tokensHeld;

  /** The keys of the hints taken by groups not settled yet. */
  private final Set<String> inFlight = new HashSet<>();

  /** For keys in flight, the newest hint that came due meanwhile, armed again at settle. */
  private final Map<String, TimeIndex.Entry> heldBack = new HashMap<>();

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

  /** The hints one run took off the index at {@link #now}, and what became of them. */
  static final class Group {
    final long now;

    /** Versions minted after this node started: fired without asking the guard. */
    final List<TimeIndex.Entry> checked = new ArrayList<>();

    /** Versions minted before: the guard is asked about them first. */
    final List<TimeIndex.Entry> unchecked = new ArrayList<>();

    /** Whether it stopped at its limit with more due. */
    boolean full;

    /** Whether it stopped for want of a backlog token. */
    boolean rateBound;

    /** Backlog tokens held for its late hints until {@link #settle}. */
    int held;

    /** Settled outcomes, for {@link #settle}: committed late fires and hints to put back. */
    int lateCommits;

    /** Hints found not due yet (the clock went backwards), at the due time the entry has. */
    final List<TimeIndex.Entry> notYet = new ArrayList<>();

    final List<TimeIndex.Entry> retry = new ArrayList<>();
    final List<TimeIndex.Entry> notOwner = new ArrayList<>();

    Group(long now) {
      this.now = now;
    }

    boolean isEmpty() {
      return checked.isEmpty() && unchecked.isEmpty();
    }

    /** Every hint the group took off the index. */
    List<TimeIndex.Entry> taken() {
      List<TimeIndex.Entry> taken = new ArrayList<>(checked.size() + unchecked.size());
      taken.addAll(checked);
      taken.addAll(unchecked);
      return taken;
    }
  }

  /**
   * Under the lock: takes off the index what is due at {@code now}, at most {@code limit} hints and
   * within the backlog rate. The caller {@link #commit}s the group without the lock, then {@link
   * #settle}s it under the lock; while {@link Group#full} it comes back for the next group, so that
   * the delivery of one group overlaps the commit of the next.
   */
  Group takeDue(long now, int limit) {
    Group group = new Group(now);
    blockedUntil = Long.MAX_VALUE;
    long deliveryRefusedUntil = dispatcher.refusedUntil();
    if (now < deliveryRefusedUntil) {
      // the executor refused the last fire (a server suspending for shutdown, say): committing
      // more now would only undo them again
      blockedUntil = deliveryRefusedUntil;
      return group;
    }
    if (!store.acceptsWrites()) {
      // a minority partition refuses every commit: ask again after a pause, without trying each
      // due reminder (each refusal costs a logged stack trace in Infinispan)
      blockedUntil = now + Scheduler.FAILED_RETRY_PAUSE_MILLIS;
      return group;
    }
    SegmentedTimeIndex hints = index.hints();
    int taken = 0;
    while (true) {
      OptionalLong next = hints.nextDueMillis();
      if (next.isEmpty() || next.getAsLong() > now) {
        break;
      }
      if (taken >= limit) {
        group.full = true;
        break;
      }
      boolean late = isBacklog(next.getAsLong(), now);
      // A late hint needs a token, but only its commit spends one (in settle): a hint found stale,
      // or buried by the guard, fires nothing and must not slow the backlog down.
      if (late && !backlog.hasToken(now, tokensHeld)) {
        group.rateBound = true;
        break;
      }
      TimeIndex.Entry hint = hints.pollDue(now, 1).get(0);
      if (inFlight.contains(hint.cacheKey())) {
        heldBack.merge(
            hint.cacheKey(),
            hint,
            (held, later) -> later.version() >= held.version() ? later : held);
        continue;
      }
      inFlight.add(hint.cacheKey());
      taken++;
      if (late) {
        group.held++;
        tokensHeld++;
      }
      (hint.version() <= recovery.mintedBeforeStart() ? group.unchecked : group.checked).add(hint);
    }
    return group;
  }

  /**
   * Without the lock: commits {@code group} and hands each committed fire to the dispatcher as soon
   * as its commit, and every one due before it, is acknowledged. Touches neither the index nor the
   * backlog: what they need is left in the group for {@link #settle}.
   *
   * @return how many fires were handed to delivery
   */
  int commit(Group group) {
    List<Issued> issued = new ArrayList<>(group.checked.size() + group.unchecked.size());
    // the group's commits go to the cluster together, as one command where the store can
    store.writeTogether(() -> issue(group, issued));
    int delivered = 0;
    // In issue order, which is due order: deliveries start in the order they were due, each as
    // soon as its commit is acknowledged (sent as one command, a group's commits are acknowledged
    // together), not after the run's last.
    for (Issued one : issued) {
      Firing.Attempt attempt = one.attempt().toCompletableFuture().join();
      switch (attempt.outcome()) {
        case COMMITTED -> {
          if (isBacklog(one.hint().dueMillis(), group.now)) {
            group.lateCommits++;
          }
          delivered += dispatcher.dispatch(attempt);
        }
        case NOT_YET -> {
          TimeIndex.Entry hint = one.hint();
          group.notYet.add(
              new TimeIndex.Entry(
                  hint.cacheKey(), hint.version(), attempt.dueMillis(), hint.tag()));
        }
        // Put back a pause ahead in settle, or the next run would retry it at once, forever.
        case FAILED -> group.retry.add(one.hint());
        case NOT_OWNER -> group.notOwner.add(one.hint());
        default -> {}
      }
    }
    return delivered;
  }

  /** Issues the commits of {@code group}'s hints, in due order, into {@code issued}. */
  private void issue(Group group, List<Issued> issued) {
    for (TimeIndex.Entry hint : group.checked) {
      issued.add(new Issued(hint, firing.attemptAsync(hint, group.now)));
    }
    if (!group.unchecked.isEmpty()) {
      Map<ReminderId, ReminderState> verdict = outlived.verdict(group.unchecked);
      for (TimeIndex.Entry hint : group.unchecked) {
        ReminderState end = verdict.get(hint.id());
        if (end == null) {
          issued.add(new Issued(hint, firing.attemptAsync(hint, group.now)));
        } else if (!outlived.bury(hint, end, group.now)) {
          group.retry.add(hint);
        }
      }
    }
  }

  /**
   * Under the lock: spends the backlog tokens of the group's late commits, releases the rest it
   * held, lets its keys be attempted again and, if {@code putBack} (the scheduler still runs), puts
   * back what must be tried again and arms what was held back meanwhile, never over a newer hint.
   */
  void settle(Group group, boolean putBack) {
    List<TimeIndex.Entry> held = new ArrayList<>();
    for (TimeIndex.Entry hint : group.taken()) {
      inFlight.remove(hint.cacheKey());
      TimeIndex.Entry later = heldBack.remove(hint.cacheKey());
      if (later != null) {
        held.add(later);
      }
    }
    long now = group.now;
    tokensHeld -= group.held;
    for (int i = 0; i < group.lateCommits; i++) {
      backlog.tryAcquire(now); // available: takeDue checked it, counting the held ones
    }
    if (group.rateBound) {
      // after the held tokens the guard's burials and stale hints left unspent: now, if any is left
      blockedUntil = Math.min(blockedUntil, backlog.nextTokenAt(now));
    }
    if (!putBack) {
      return;
    }
    SegmentedTimeIndex hints = index.hints();
    for (TimeIndex.Entry hint : group.notYet) {
      putBack(hints, hint, hint.dueMillis());
    }
    for (TimeIndex.Entry hint : group.notOwner) {
      // The topology installed now names another primary, but this worker still arms the
      // segment: the change is not applied yet, or it was a passing one. Kept a pause ahead like
      // a failure; applying the topology drops it if the segment is gone. Dropped here, a segment
      // that stays would have this reminder back only when the sweep window reached it.
      if (index.owns(hint.cacheKey())) {
        group.retry.add(hint);
      }
    }
    // Re-armed a pause ahead, not at their due time: that time is past, so the wake-up would come
    // at once, and a store that refuses every write (a minority partition) would be asked again
    // and again, a thousand times a second per reminder.
    for (TimeIndex.Entry hint : group.retry) {
      putBack(hints, hint, now + Scheduler.FAILED_RETRY_PAUSE_MILLIS);
    }
    for (TimeIndex.Entry hint : held) {
      index.armNewer(hint);
    }
  }

  /** Puts {@code hint} back at {@code dueMillis} unless the index has its id armed already. */
  private static void putBack(SegmentedTimeIndex hints, TimeIndex.Entry hint, long dueMillis) {
    // Whatever the index holds now was drained after the group took this hint: the same version
    // re-armed by the sweep, or a newer one written since. Either way it is the one to keep.
    if (!hints.contains(hint.cacheKey(), hint.tag())) {
      hints.put(hint.cacheKey(), hint.version(), dueMillis, hint.tag());
    }
  }

  /** A hint whose commit was issued and is not yet waited for. */
  private record Issued(TimeIndex.Entry hint, CompletionStage<Firing.Attempt> attempt) {}

  /** Whether a fire due at {@code dueMillis} is late enough to be paced by the backlog rate. */
  private boolean isBacklog(long dueMillis, long now) {
    return dueMillis < now - settings.backlogLateness().toMillis();
  }
}
