package io.belfry.reminders.fire;

import io.belfry.reminders.model.HybridLogicalClock;
import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.placement.ChangeSink;
import io.belfry.reminders.placement.Ownership;
import io.belfry.reminders.schedule.Clock;
import io.belfry.reminders.schedule.TimeIndex;
import io.belfry.reminders.store.ReminderStore;
import io.belfry.reminders.store.StoredReminder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * The per-node scheduler: keeps a {@link TimeIndex} of the pending reminders this node owns
 * (primary segments) and serves (namespaces), and fires them through {@link Firing} when due.
 *
 * <h2>Design</h2>
 *
 * <p><b>One inbox, one worker.</b> Infinispan notification threads (writes, topology) never touch
 * the index: as a {@link ChangeSink} the scheduler only advances the clock past the version it sees
 * (a lock-free CAS), appends the change to the {@link Inbox} and, in automatic mode, asks the timer
 * for a run. Every run ({@link #runDue()}) first drains the inbox into the {@link OwnedIndex} under
 * the scheduler's lock. {@link Recovery} arms the index at start; every scan interval the {@link
 * Sweep} compares a window of owned segments with it.
 *
 * <p><b>Hints, validated.</b> The index maps id → (version, due). A run polls what is due and lets
 * {@link Firing} validate and commit each; stale hints cost one local read. Commits trigger write
 * events like any other write, which re-arm the next occurrence or drop the tombstone.
 *
 * <p><b>Backlog.</b> A fire later than {@link EngineSettings#backlogLateness()} (after downtime or
 * a long outage of a namespace) takes a token from a {@link TokenBucket} when it commits (a hint
 * found stale, or buried by the guard, takes none); when none is left the run stops and the wake-up
 * is set for the next token, so a backlog drains at the configured rate while steady-state fires
 * are never held back.
 *
 * <p><b>Driving.</b> With a {@link ScheduledExecutorService} the scheduler arms one wake-up at the
 * earliest due time (re-armed when an earlier one arrives) plus the periodic sweep. Without one it
 * is driven by hand: tests set a {@link io.belfry.reminders.schedule.SettableClock} and call {@link
 * #runDue()}.
 *
 * <p>Announcements and deliveries happen after the lock is released, on the delivery executor
 * ({@link Dispatcher}), as do the purges of expired tombstones ({@link TombstonePurge}).
 */
public final class Scheduler implements ChangeSink {

  private static final Logger LOG = Logger.getLogger(Scheduler.class);

  /** How long a fire whose commit failed, or a recovery step, waits before it is tried again. */
  static final long FAILED_RETRY_PAUSE_MILLIS = 250;

  private final ReminderStore store;
  private final Ownership ownership;
  private final HybridLogicalClock versions;
  private final Clock clock;
  private final Firing firing;
  private final ScheduledExecutorService timer;
  private final EngineSettings settings;
  private final ResurrectionGuard guard;
  private final Leases leases;

  private final Inbox inbox = new Inbox();
  private final AtomicBoolean runRequested = new AtomicBoolean();
  private final OwnerContext context;
  private final ReentrantLock lock = new ReentrantLock();

  // Guarded by lock.
  private final OwnedIndex index;
  private final Recovery recovery;
  private final Sweep sweep;
  private final TokenBucket backlog;
  private long nextSweepAt = Long.MIN_VALUE;
  private long blockedUntil = Long.MAX_VALUE;

  private ScheduledFuture<?> wakeUp;
  private long wakeUpAt = Long.MAX_VALUE;
  private ScheduledFuture<?> sweeper;
  private ScheduledFuture<?> renewer;
  private volatile boolean running;

  // After the lock is released: deliveries and purges, on the delivery executor.
  private final Dispatcher dispatcher;
  private final TombstonePurge purge;

  public Scheduler(
      ReminderStore store,
      Ownership ownership,
      Predicate<String> servedNamespaces,
      HybridLogicalClock versions,
      Clock clock,
      ScheduledExecutorService timer,
      Executor deliveryExecutor,
      Delivery delivery,
      EngineListener listener,
      EngineSettings settings,
      ResurrectionGuard guard,
      AtLeastOnceSettings atLeastOnce) {
    this.store = Objects.requireNonNull(store, "store");
    this.ownership = Objects.requireNonNull(ownership, "ownership");
    Objects.requireNonNull(servedNamespaces, "servedNamespaces");
    this.versions = Objects.requireNonNull(versions, "versions");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.timer = timer;
    Objects.requireNonNull(deliveryExecutor, "deliveryExecutor");
    Objects.requireNonNull(delivery, "delivery");
    Objects.requireNonNull(listener, "listener");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.guard = Objects.requireNonNull(guard, "guard");
    this.leases =
        new Leases(
            store,
            versions,
            clock,
            ownership.localNode(),
            atLeastOnce.lease(),
            atLeastOnce.retries());
    this.firing = new Firing(store, ownership, versions, leases);
    this.context = new OwnerContext();
    this.index = new OwnedIndex(store, ownership, servedNamespaces);
    this.recovery = new Recovery(store, versions, clock, index);
    this.sweep = new Sweep(store, settings, ownership, index);
    this.dispatcher =
        new Dispatcher(
            store,
            versions,
            clock,
            settings,
            deliveryExecutor,
            delivery,
            listener,
            leases,
            context);
    this.purge = new TombstonePurge(store, listener, deliveryExecutor, context);
    this.backlog = new TokenBucket(settings.backfillRatePerSecond());
  }

  // --- ChangeSink: notification threads; hand off only -------------------------------------

  @Override
  public void written(String cacheKey, byte[] encoded) {
    try {
      versions.observe(ReminderCodec.versionOf(encoded));
    } catch (RuntimeException e) {
      // Corrupt or foreign bytes: the worker logs them when it decodes.
    }
    inbox.written(cacheKey, encoded);
    requestRun();
  }

  @Override
  public void removed(String cacheKey) {
    inbox.removed(cacheKey);
    requestRun();
  }

  @Override
  public void topologyChanged() {
    inbox.topologyChanged();
    requestRun();
  }

  // --- Lifecycle ------------------------------------------------------------------------------

  /**
   * Recovery and start: advances the clock past every version stored locally, arms the owned
   * pending ones and, in automatic mode, starts the timers. Subscribe to the change feed before
   * calling this, so that no write is missed between the scan and the first run.
   *
   * <p>By hand (no timer), recovery reads every segment before this returns. In automatic mode it
   * reads {@code Recovery.SEGMENTS_PER_STEP} segments per step on the timer, and the scheduler
   * fires between steps: on a large store the first overdue reminders fire after the first step,
   * not after the whole scan. Until recovery ends every fire is checked by the {@link
   * ResurrectionGuard}, since the newest version stored is not known yet.
   */
  public void start() {
    lock.lock();
    try {
      index.takeOwnership();
      recovery.begin();
      running = true;
      nextSweepAt = clock.millis() + settings.scanInterval().toMillis();
      if (timer == null) {
        recovery.readAll();
        return;
      }
      recovery.planSteps(ownership.segmentCount());
      long period = settings.scanInterval().toMillis();
      sweeper = timer.scheduleAtFixedRate(this::runQuietly, period, period, TimeUnit.MILLISECONDS);
      long renewal = leases.renewalIntervalMillis();
      renewer =
          timer.scheduleAtFixedRate(
              this::renewLeasesQuietly, renewal, renewal, TimeUnit.MILLISECONDS);
      scheduleRecoveryStep(0);
      requestRun();
    } finally {
      lock.unlock();
    }
  }

  /** Whether recovery has read every segment since the last {@link #start()}. */
  public boolean recovered() {
    return recovery.recovered();
  }

  /** One step of automatic recovery; the next is queued behind the run this one may request. */
  private void recoverStep() {
    boolean more;
    lock.lock();
    try {
      if (!running || !recovery.hasStepsLeft()) {
        return;
      }
      if (!recovery.readNextStep()) {
        scheduleRecoveryStep(FAILED_RETRY_PAUSE_MILLIS);
        return;
      }
      more = recovery.hasStepsLeft();
      rearm();
    } finally {
      lock.unlock();
    }
    if (more) {
      scheduleRecoveryStep(0);
    }
  }

  private void scheduleRecoveryStep(long delayMillis) {
    try {
      timer.schedule(this::recoverStepQuietly, delayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      LOG.debugf("BELFRY-0342 Timer rejected a recovery step; stopping?");
    }
  }

  /** Stops the timers and forgets the index; the store keeps everything. */
  public void stop() {
    lock.lock();
    try {
      running = false;
      if (sweeper != null) {
        sweeper.cancel(false);
        sweeper = null;
      }
      if (renewer != null) {
        renewer.cancel(false);
        renewer = null;
      }
      cancelWakeUp();
      index.clear();
      inbox.clear();
      recovery.stop();
    } finally {
      lock.unlock();
    }
  }

  /** How many hints the index holds; for health and tests. */
  public int armedCount() {
    lock.lock();
    try {
      return index.hints().size();
    } finally {
      lock.unlock();
    }
  }

  // --- The worker -----------------------------------------------------------------------------

  /**
   * One run at the clock's now: apply queued changes, sweep if the scan interval has passed, and
   * commit what is due (within the backlog rate and {@link EngineSettings#maxFiresPerRun()}).
   * Deliveries are handed to the delivery executor after the lock is released.
   *
   * @return how many fires were committed for delivery
   */
  public int runDue() {
    List<Firing.Attempt> commits = new ArrayList<>();
    List<StoredReminder> expired = new ArrayList<>();
    lock.lock();
    try {
      if (!running) {
        return 0;
      }
      long now = clock.millis();
      if (wakeUpAt <= now) {
        // That wake-up is this run (or is about to start and will find nothing): forget it, so
        // that rearm() below schedules the next one instead of trusting a future that is running.
        wakeUp = null;
        wakeUpAt = Long.MAX_VALUE;
      }
      inbox.drainInto(index);
      if (now >= nextSweepAt) {
        // A safety net, like the sweep itself: should a topology notification be missed or be
        // read before its topology is installed, ownership is stale for at most one scan
        // interval. (The missed fires seen on real clusters had another cause, segments computed
        // on the wrong key form; this check did not prevent them.)
        if (index.ownershipChanged()) {
          index.applyTopology();
        }
        sweep.nextWindow(now, expired);
        nextSweepAt = now + settings.scanInterval().toMillis();
      }
      fireDue(now, commits);
      rearm();
    } finally {
      lock.unlock();
    }
    int delivered = dispatcher.dispatch(commits);
    purge.submit(expired);
    return delivered;
  }

  /** Sweeps every owned segment now, whatever the window; for tests and operators. */
  public void sweepAll() {
    List<StoredReminder> expired = new ArrayList<>();
    lock.lock();
    try {
      inbox.drainInto(index);
      sweep.segments(clock.millis(), index.owned(), expired);
    } finally {
      lock.unlock();
    }
    purge.submit(expired);
  }

  /**
   * Renews the leases of the at-least-once deliveries under way on this node; in automatic mode a
   * timer does this every third of the lease.
   */
  public void renewLeases() {
    leases.renewAll();
  }

  /** How many at-least-once deliveries are under way on this node. */
  public int deliveriesInFlight() {
    return leases.inFlight();
  }

  private void renewLeasesQuietly() {
    quietly(leases::renewAll, "BELFRY-0315 Lease renewal failed");
  }

  private void runQuietly() {
    runRequested.set(false);
    quietly(this::runDue, "BELFRY-0303 Scheduler run failed");
  }

  private void recoverStepQuietly() {
    quietly(this::recoverStep, "BELFRY-0343 Recovery step failed");
  }

  /**
   * Runs a timer task in the owner's context. A failure is logged, never thrown: it would cancel a
   * periodic task, and the next run, renewal or step tries again.
   */
  private void quietly(Runnable task, String failure) {
    ClassLoader previous = context.enter();
    try {
      task.run();
    } catch (Throwable e) {
      LOG.error(failure, e);
    } finally {
      context.leave(previous);
    }
  }

  private void requestRun() {
    if (timer == null || !running || !runRequested.compareAndSet(false, true)) {
      return;
    }
    try {
      timer.execute(this::runQuietly);
    } catch (RejectedExecutionException e) {
      runRequested.set(false);
    }
  }

  private void fireDue(long now, List<Firing.Attempt> commits) {
    blockedUntil = Long.MAX_VALUE;
    long deliveryRefusedUntil = dispatcher.refusedUntil();
    if (now < deliveryRefusedUntil) {
      // the executor refused the last fire (a server suspending for shutdown, say): committing
      // more now would only undo them again
      blockedUntil = deliveryRefusedUntil;
      return;
    }
    if (!store.acceptsWrites()) {
      // a minority partition refuses every commit: ask again after a pause, without trying each
      // due reminder (each refusal costs a logged stack trace in Infinispan)
      blockedUntil = now + FAILED_RETRY_PAUSE_MILLIS;
      return;
    }
    int budget = settings.maxFiresPerRun();
    List<TimeIndex.Entry> retry = new ArrayList<>();
    List<TimeIndex.Entry> unchecked = new ArrayList<>();
    // A late hint needs a token, but only its commit spends one (in attempt): a hint found stale,
    // or buried by the guard, fires nothing and must not slow the backlog down. Late hints that
    // wait for the guard hold a token meanwhile, so a run takes on no more than it may fire.
    int held = 0;
    boolean rateBound = false;
    while (commits.size() + unchecked.size() < budget) {
      OptionalLong next = index.hints().nextDueMillis();
      if (next.isEmpty() || next.getAsLong() > now) {
        break;
      }
      boolean late = isBacklog(next.getAsLong(), now);
      if (late && !backlog.hasToken(now, held)) {
        rateBound = true;
        break;
      }
      TimeIndex.Entry hint = index.hints().pollDue(now, 1).get(0);
      if (hint.version() <= recovery.mintedBeforeStart()) {
        unchecked.add(hint);
        held += late ? 1 : 0;
      } else {
        attempt(hint, now, commits, retry);
      }
    }
    if (!unchecked.isEmpty()) {
      Map<ReminderId, ReminderState> outlived = outlived(unchecked);
      for (TimeIndex.Entry hint : unchecked) {
        ReminderState end = outlived.get(hint.id());
        if (end == null) {
          attempt(hint, now, commits, retry);
        } else if (!bury(hint, end, now)) {
          retry.add(hint);
        }
      }
    }
    // Re-armed a pause ahead, not at their due time: that time is past, so the wake-up would come
    // at once, and a store that refuses every write (a minority partition) would be asked again
    // and again, a thousand times a second per reminder.
    for (TimeIndex.Entry hint : retry) {
      if (!index.hints().contains(hint.id())) {
        index.hints().put(hint.id(), hint.version(), now + FAILED_RETRY_PAUSE_MILLIS);
      }
    }
    if (rateBound) {
      // after the held tokens the guard's burials left unspent: now, if any is left
      blockedUntil = backlog.nextTokenAt(now);
    }
  }

  /** Whether a fire due at {@code dueMillis} is late enough to be paced by the backlog rate. */
  private boolean isBacklog(long dueMillis, long now) {
    return dueMillis < now - settings.backlogLateness().toMillis();
  }

  private void attempt(
      TimeIndex.Entry hint, long now, List<Firing.Attempt> commits, List<TimeIndex.Entry> retry) {
    Firing.Attempt attempt = firing.attempt(hint, now);
    switch (attempt.outcome()) {
      case COMMITTED -> {
        commits.add(attempt);
        if (isBacklog(hint.dueMillis(), now)) {
          backlog.tryAcquire(now); // available: fireDue checked it, counting the held ones
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

  /** The guard's verdict on versions minted before this node started; none if it cannot tell. */
  private Map<ReminderId, ReminderState> outlived(List<TimeIndex.Entry> hints) {
    try {
      return guard.outlived(hints.stream().map(this::candidateOf).toList());
    } catch (RuntimeException e) {
      // Holding fires until the archive answers would make firing depend on the database; a
      // resurrection needs a lost store index, a purged tombstone and this outage at once.
      LOG.warnf(
          e,
          "BELFRY-0321 Could not check %d reminders against the audit archive; firing them"
              + " unchecked",
          hints.size());
      return Map.of();
    }
  }

  /**
   * What the archive knows a hint by: its fence, which an at-least-once delivery's steps share (the
   * archive records their activities under it), else the version itself.
   */
  private ResurrectionGuard.Candidate candidateOf(TimeIndex.Entry hint) {
    try {
      Optional<StoredReminder> live = store.get(hint.id());
      if (live.isPresent() && live.get().record().version() == hint.version()) {
        return new ResurrectionGuard.Candidate(hint.id(), live.get().record().fence());
      }
    } catch (RuntimeException e) {
      // the attempt re-reads and reports it
    }
    return new ResurrectionGuard.Candidate(hint.id(), hint.version());
  }

  /**
   * Passes over a resurrected version without firing it: what {@link Firing#afterOutlived} makes of
   * it (a tombstone, or a recurring reminder's next occurrence) replaces exactly the pending
   * version the hint names, as a fire's commit would. Returns false if the store failed.
   */
  private boolean bury(TimeIndex.Entry hint, ReminderState end, long now) {
    try {
      Optional<StoredReminder> live = store.get(hint.id());
      if (live.isEmpty()
          || !live.get().record().state().isArmed()
          || live.get().record().version() != hint.version()) {
        return true;
      }
      ReminderRecord successor = firing.afterOutlived(live.get().record(), end, now);
      if (!store.replace(live.get(), successor)) {
        return true;
      }
      if (!successor.isTombstone()) {
        LOG.warnf(
            "BELFRY-0323 Reminder %s version %d came back from a store, but the audit archive"
                + " shows its occurrence %d %s: moved on to occurrence %d due %s without firing",
            hint.id().cacheKey(),
            hint.version(),
            live.get().record().occurrence(),
            end.name().toLowerCase(),
            successor.occurrence(),
            Instant.ofEpochMilli(successor.nextDueMillis()));
      } else {
        LOG.warnf(
            "BELFRY-0324 Reminder %s version %d came back from a store, but the audit archive"
                + " shows it %s: buried as %s without firing",
            hint.id().cacheKey(),
            hint.version(),
            end == ReminderState.CANCELLED ? "cancelled or replaced" : end.name().toLowerCase(),
            end);
      }
      return true;
    } catch (RuntimeException e) {
      LOG.warnf(e, "BELFRY-0322 Burying resurrected reminder %s failed; retried", hint.id());
      return false;
    }
  }

  /** Arms the single wake-up at the earliest time anything can happen; automatic mode only. */
  private void rearm() {
    if (timer == null || !running) {
      return;
    }
    // While blocked (backlog rate, refused deliveries, a store refusing writes), nothing due can
    // happen before blockedUntil: overdue entries must not make the wake-up immediate, or the
    // scheduler would spin until the block ends.
    long next = index.hints().nextDueMillis().orElse(Long.MAX_VALUE);
    long at = blockedUntil == Long.MAX_VALUE ? next : Math.max(next, blockedUntil);
    if (at == Long.MAX_VALUE) {
      return;
    }
    if (wakeUp != null && !wakeUp.isDone() && wakeUpAt <= at) {
      return;
    }
    cancelWakeUp();
    // Never further out than one scan interval: the sweep runs that often anyway, and a cancelled
    // task stays in the managed executor's queue until its time (it does not remove on cancel),
    // holding this scheduler and through it the deployment's class loader. An hour-away wake-up
    // pinned every undeployed deployment in memory for that hour.
    long now = clock.millis();
    long delay = Math.min(Math.max(0, at - now), settings.scanInterval().toMillis());
    wakeUpAt = now + delay;
    try {
      wakeUp = timer.schedule(this::runQuietly, delay, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      LOG.debugf("BELFRY-0307 Timer rejected the wake-up; stopping?");
    }
  }

  private void cancelWakeUp() {
    if (wakeUp != null) {
      wakeUp.cancel(false);
      wakeUp = null;
    }
    wakeUpAt = Long.MAX_VALUE;
  }
}
