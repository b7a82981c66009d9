package io.belfry.reminders.fire;

import io.belfry.reminders.model.HybridLogicalClock;
import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.placement.ChangeSink;
import io.belfry.reminders.placement.Ownership;
import io.belfry.reminders.schedule.Clock;
import io.belfry.reminders.schedule.TimeIndex;
import io.belfry.reminders.store.OwnerContext;
import io.belfry.reminders.store.ReminderStore;
import io.belfry.reminders.store.StoredReminder;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.jboss.logging.Logger;

/**
 * The per-node scheduler: keeps a {@link TimeIndex} of the pending reminders this node owns
 * (primary segments) and serves (namespaces), and fires them through {@link Firing} when due.
 *
 * <h2>Design</h2>
 *
 * <p>A run ({@link #runDue()}) goes through the rooms of this package in order:
 *
 * <ol>
 *   <li><b>{@link Inbox}</b>: Infinispan notification threads never touch the index. As a {@link
 *       ChangeSink} the scheduler only advances the clock past the version it sees (a lock-free
 *       CAS), appends the change to the inbox and, in automatic mode, asks the timer for a run,
 *       which first drains the inbox.
 *   <li><b>{@link OwnedIndex}</b>: the index of hints, id → (version, due), armed from the drained
 *       writes, from {@link Recovery} at start, and re-armed or dropped as segments are gained or
 *       lost. Every scan interval the {@link Sweep} compares a window of owned segments with it.
 *   <li><b>{@link DueFires}</b>: take what is due off the index, group by group, paced by the
 *       backlog rate; then, after the lock is released, validate and commit each group (versions
 *       minted before this node started are first checked by {@link OutlivedVersions} against the
 *       {@link ResurrectionGuard}), and settle it under the lock again.
 *   <li><b>{@link Dispatcher}</b> and <b>{@link TombstonePurge}</b>: without the lock, each commit
 *       is announced and its fire delivered as soon as it is acknowledged, and the tombstones the
 *       sweep found expired are archived and purged, on the delivery executor.
 * </ol>
 *
 * <p><b>The lock.</b> {@code lock} guards the index and everything that changes it: the owned
 * segments, recovery's progress, the sweep's cursor and schedule, the backlog's tokens and block,
 * and the timer's wake-up. A run holds it while it drains the inbox and takes a group off the
 * index, and again while it settles the group and arms the next wake-up, never while a commit or
 * the guard's query is waited for; the sweep holds it while it compares a chunk of what it read,
 * and a recovery step while it arms what it read (neither while it reads the store). Notification
 * threads never take it (they use the inbox), nor do commits, deliveries, purges and lease
 * renewals, which run after it is released or beside it; {@link #recovered()} and {@code running}
 * are read without it. The classes it guards are not thread-safe and are used only under it.
 *
 * <p><b>Driving.</b> With a {@link ScheduledExecutorService} the scheduler arms one wake-up at the
 * earliest due time (re-armed when an earlier one arrives) plus the periodic sweep. Without one it
 * is driven by hand: tests set a {@link io.belfry.reminders.schedule.SettableClock} and call {@link
 * #runDue()}.
 */
public final class Scheduler implements ChangeSink {

  private static final Logger LOG = Logger.getLogger(Scheduler.class);

  /** How long a fire whose commit failed, or a recovery step, waits before it is tried again. */
  static final long FAILED_RETRY_PAUSE_MILLIS = 250;

  private final Ownership ownership;
  private final HybridLogicalClock versions;
  private final Clock clock;
  private final ScheduledExecutorService timer;
  private final EngineSettings settings;
  private final Leases leases;
  private final OwnerContext context;

  private final Inbox inbox = new Inbox();
  private final AtomicBoolean runRequested = new AtomicBoolean();
  private final ReentrantLock lock = new ReentrantLock();

  // Guarded by lock: these fields, and the state of these objects.
  private final OwnedIndex index;
  private final Recovery recovery;
  private final StandbyFill standbyFill;
  private final Sweep sweep;
  private final DueFires dueFires;
  private final WakeUp wakeUp;
  private long nextSweepAt = Long.MIN_VALUE;
  private ScheduledFuture<?> sweeper;
  private ScheduledFuture<?> renewer;

  // Not guarded: they run after the lock is released.
  private final Dispatcher dispatcher;
  private final TombstonePurge purge;

  private volatile boolean running;
  private volatile Runnable whenRecovered = () -> {};

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
    Objects.requireNonNull(store, "store");
    this.ownership = Objects.requireNonNull(ownership, "ownership");
    Objects.requireNonNull(servedNamespaces, "servedNamespaces");
    this.versions = Objects.requireNonNull(versions, "versions");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.timer = timer;
    Objects.requireNonNull(deliveryExecutor, "deliveryExecutor");
    Objects.requireNonNull(delivery, "delivery");
    Objects.requireNonNull(listener, "listener");
    this.settings = Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(guard, "guard");
    this.leases =
        new Leases(
            store,
            versions,
            clock,
            ownership.localNode(),
            atLeastOnce.lease(),
            atLeastOnce.retries());
    Firing firing = new Firing(store, ownership, versions, leases);
    this.context = new OwnerContext();
    this.index = new OwnedIndex(store, ownership, servedNamespaces, settings.standbyHints());
    this.recovery = new Recovery(store, versions, clock, index);
    this.standbyFill =
        new StandbyFill(
            lock, index, inbox, ownership, timer, () -> running && recovery.recovered(), context);
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
    this.dueFires =
        new DueFires(
            store,
            settings,
            firing,
            index,
            recovery,
            new OutlivedVersions(store, guard, firing),
            dispatcher);
    this.wakeUp = new WakeUp(timer, clock, settings, this::runQuietly);
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

  /**
   * Called once the topology is installed, so whether this node holds the whole replica is read
   * from the topology notified: a run may drain several topologies at once, and must still learn
   * that this node received state in between.
   */
  @Override
  public void topologyChanged() {
    inbox.topologyChanged(!ownership.holdsWholeReplica());
    requestRun();
  }

  /**
   * Called when the engines that are ready changed on some member ({@code ReadyEngines}): the
   * segments this node fires are read again, as after a topology change.
   */
  public void ownersChanged() {
    inbox.ownersChanged();
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
        sweep.observed(ownership.segmentCount(), recovery.readAll());
        standbyFill.fillAll();
        return;
      }
      recovery.planSteps(ownership.segmentCount());
      long period = settings.scanInterval().toMillis();
      sweeper = timer.scheduleAtFixedRate(this::runQuietly, period, period, TimeUnit.MILLISECONDS);
      long renewal = leases.renewalIntervalMillis();
      renewer =
          timer.scheduleAtFixedRate(
              () -> quietly(leases::renewAll, "BELFRY-0315 Lease renewal failed"),
              renewal,
              renewal,
              TimeUnit.MILLISECONDS);
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

  /**
   * One step of automatic recovery; the next is queued behind the run this one may request. The
   * step reads its segments without the lock, so that runs keep firing while it reads.
   */
  private void recoverStep() {
    Recovery.Step step;
    lock.lock();
    try {
      if (!running || !recovery.hasStepsLeft()) {
        return;
      }
      step = recovery.nextStep();
    } finally {
      lock.unlock();
    }
    Recovery.StepRead read;
    try {
      read = recovery.read(step);
    } catch (RuntimeException e) {
      // the same segments again after a pause: a cache that is not available yet, say
      LOG.warnf(
          "BELFRY-0341 Recovery of segments %s failed, retried: %s", step.segments(), e.toString());
      scheduleRecoveryStep(FAILED_RETRY_PAUSE_MILLIS);
      return;
    }
    boolean more;
    lock.lock();
    try {
      if (!running) {
        return;
      }
      recovery.arm(step, read);
      // so that the sweep's first windows are not the setting's width on a store of millions
      sweep.observed(step.segments().cardinality(), read.visited());
      more = recovery.hasStepsLeft();
      rearm();
    } finally {
      lock.unlock();
    }
    if (more) {
      scheduleRecoveryStep(0);
    } else if (recovery.recovered()) {
      whenRecovered.run();
    }
  }

  private void scheduleRecoveryStep(long delayMillis) {
    try {
      timer.schedule(
          () -> quietly(this::recoverStep, "BELFRY-0343 Recovery step failed"),
          delayMillis,
          TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      LOG.debugf("BELFRY-0342 Timer rejected a recovery step; stopping?");
    }
  }

  /** How many standby hints this node keeps; for tests. */
  public int standbyCount() {
    return underLock(() -> index.standby().size());
  }

  /**
   * Whether this node could fire every segment the topology makes it primary owner of at once,
   * without reading its store: it runs, has recovered, holds the whole replica in a settled
   * topology, and its standby hints cover each such segment it does not fire yet. Always false with
   * standby hints off. A joiner that holds back announces itself once this holds ({@code
   * ReadyEngines}).
   */
  public boolean armedForShare() {
    return standbyFill.armedForShare();
  }

  /** Swaps {@code keys[i]} of segment {@code segments[i]} for a hint's equal String; see attach. */
  public int shareHeldKeys(String[] keys, int[] segments, int count) {
    return underLock(() -> index.shareHeldKeys(keys, segments, count));
  }

  /**
   * The key index's hooks, before start: {@code recovered} runs once recovery has read every
   * segment; keys read from the store become {@code kept}'s equal Strings (one copy per key).
   */
  public void attach(Runnable recovered, UnaryOperator<String> kept) {
    whenRecovered = Objects.requireNonNull(recovered, "recovered");
    index.keepKeysOf(Objects.requireNonNull(kept, "kept"));
  }

  /** How many gained segments were read from the store rather than handed over from memory. */
  public long segmentsGainedFromStore() {
    return underLock(index::segmentsGainedFromStore);
  }

  /** Stops the timers and forgets the index; the store keeps everything, and the next order. */
  public void stop() {
    long[] order;
    lock.lock();
    try {
      inbox.drainInto(index);
      order = recovery.recovered() ? index.earliestDueBySegment() : null;
      running = false;
      if (sweeper != null) {
        sweeper.cancel(false);
        sweeper = null;
      }
      if (renewer != null) {
        renewer.cancel(false);
        renewer = null;
      }
      wakeUp.cancel();
      standbyFill.stop();
      index.clear();
      inbox.clear();
      recovery.stop();
    } finally {
      lock.unlock();
    }
    recovery.recordOrder(order);
  }

  /** How many hints the index holds; for health and tests. */
  public int armedCount() {
    return underLock(() -> index.hints().size());
  }

  private <T> T underLock(Supplier<T> read) {
    lock.lock();
    try {
      return read.get();
    } finally {
      lock.unlock();
    }
  }

  // --- The worker -----------------------------------------------------------------------------

  /**
   * Due fires committed together per group (see {@link DueFires}); the groups of a run commit one
   * after the other. A run's first group is smaller, because its first fire waits behind the other
   * commits issued with it. Measured (performance/comparison.md, "Where a warm burst's CPU goes"):
   * with 512, not 64, three warm WildFly nodes ended a burst of 5,000 10-20 % sooner (1,024 no
   * sooner); a first group of 512 delayed three in-JVM members' first fire from 11-22 to 55 ms.
   */
  static final int COMMIT_GROUP = 512;

  static final int FIRST_GROUP = 64; // a run's first group, see COMMIT_GROUP

  /**
   * One run at the clock's now: apply queued changes, fire what is due (within the backlog rate and
   * {@link EngineSettings#maxFiresPerRun()}) group by group, then, if the scan interval has passed,
   * sweep the next window. Only taking a group off the index and settling it hold the lock, so
   * write events, topology changes and other runs never wait for the cluster's round trips, the
   * database or a read of the store (see the class comment).
   *
   * @return how many fires were committed for delivery
   */
  public int runDue() {
    BitSet sweepWindow = null;
    long[] order = null;
    lock.lock();
    try {
      if (!running) {
        return 0;
      }
      long now = clock.millis();
      wakeUp.passed(now);
      if (now >= nextSweepAt) {
        // A safety net, like the sweep itself: should a topology notification be missed or be
        // read before its topology is installed, ownership is stale for at most one scan interval.
        inbox.drainInto(index);
        if (index.ownershipChanged()) {
          index.applyTopology();
        }
        // none while recovery reads every segment anyway: a window beside it took a fifth of a
        // million-entry recovery's samples on WildFly
        sweepWindow = recovery.recovered() ? sweep.nextWindow() : null;
        order = recovery.recovered() ? index.earliestDueBySegment() : null;
        nextSweepAt = now + settings.scanInterval().toMillis();
        standbyFill.startIfNeeded();
      }
    } finally {
      lock.unlock();
    }
    int delivered = fireDue();
    if (sweepWindow != null && !sweepWindow.isEmpty()) {
      // After the fires: the sweep is a safety net. What it arms is due at once, so the wake-up
      // it re-arms brings the next run now; driven by hand, that run is this one's.
      sweep(sweepWindow);
      if (timer == null) {
        delivered += fireDue();
      }
    }
    recovery.recordOrder(order); // after the fires, like the sweep: a file write delays none
    return delivered;
  }

  /** Fires what is due now, group by group; see {@link #runDue}. */
  private int fireDue() {
    int delivered = 0;
    int budget = settings.maxFiresPerRun();
    int groupSize = FIRST_GROUP;
    boolean more = true;
    while (more) {
      DueFires.Group group;
      lock.lock();
      try {
        if (!running) {
          return delivered;
        }
        long now = clock.millis();
        inbox.drainInto(index);
        int limit = Math.min(groupSize, budget);
        groupSize = COMMIT_GROUP;
        budget -= limit;
        group = dueFires.takeDue(now, limit);
        more = group.full && budget > 0;
        if (group.isEmpty()) {
          rearm();
        }
      } finally {
        lock.unlock();
      }
      if (group.isEmpty()) {
        continue;
      }
      try {
        delivered += dueFires.commit(group);
      } finally {
        lock.lock();
        try {
          // settled after a stop, or a failure, too: the tokens it held are given back; after a
          // stop the index it would put hints back into was cleared, and a start reads the store
          dueFires.settle(group, running);
          if (!more) {
            rearm();
          }
        } finally {
          lock.unlock();
        }
      }
    }
    return delivered;
  }

  /**
   * Sweeps {@code segments}: reads them without the lock, compares what it read with the index a
   * chunk at a time under the lock, arms the wake-up for what it armed, and purges the expired
   * tombstones it found.
   */
  private void sweep(BitSet segments) {
    long now = clock.millis();
    List<StoredReminder> expired = new ArrayList<>();
    long read =
        sweep.read(
            segments,
            chunk -> {
              lock.lock();
              try {
                if (running) {
                  inbox.drainInto(index);
                  sweep.apply(chunk, now, expired);
                }
              } finally {
                lock.unlock();
              }
            });
    lock.lock();
    try {
      sweep.observed(segments.cardinality(), read);
      rearm();
    } finally {
      lock.unlock();
    }
    purge.submit(expired);
  }

  /** Sweeps every owned segment now, whatever the window; for tests and operators. */
  public void sweepAll() {
    sweep(
        underLock(
            () -> {
              inbox.drainInto(index);
              return (BitSet) index.owned().clone();
            }));
  }

  /** Renews this node's at-least-once leases now; a timer does it every third of the lease. */
  public void renewLeases() {
    leases.renewAll();
  }

  /** How many at-least-once deliveries are under way on this node. */
  public int deliveriesInFlight() {
    return leases.inFlight();
  }

  // --- Timers ---------------------------------------------------------------------------------

  private void runQuietly() {
    runRequested.set(false);
    quietly(this::runDue, "BELFRY-0303 Scheduler run failed");
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

  /** Arms the single wake-up at the earliest time anything can happen; automatic mode only. */
  private void rearm() {
    if (timer == null || !running) {
      return;
    }
    // While blocked (backlog rate, refused deliveries, a store refusing writes), nothing due can
    // happen before blockedUntil: overdue entries must not make the wake-up immediate, or the
    // scheduler would spin until the block ends.
    long next = index.hints().nextDueMillis().orElse(Long.MAX_VALUE);
    long blockedUntil = dueFires.blockedUntil();
    long at = blockedUntil == Long.MAX_VALUE ? next : Math.max(next, blockedUntil);
    if (at == Long.MAX_VALUE) {
      return;
    }
    wakeUp.at(at);
  }
}
