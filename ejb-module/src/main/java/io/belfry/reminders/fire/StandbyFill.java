package io.belfry.reminders.fire;

import io.belfry.reminders.placement.Ownership;
import io.belfry.reminders.store.OwnerContext;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.jboss.logging.Logger;

/**
 * Reads the segments this node does not own into its {@link StandbyHints}, a step of {@value
 * StandbyHints#SEGMENTS_PER_STEP} segments at a time: after recovery, and again after this node
 * received state, once it holds the whole replica. With a timer each step reads without the
 * scheduler's lock, like a recovery step, and the steps follow each other until every such segment
 * is covered; the scheduler's periodic run starts them ({@link #startIfNeeded}), and so does a
 * joiner that holds back each time it asks whether it is armed. Driven by hand, every step runs at
 * once under the lock.
 */
final class StandbyFill {

  // The scheduler's log category, as before these classes were split out of it.
  private static final Logger LOG = Logger.getLogger(Scheduler.class);

  private final ReentrantLock lock;
  private final OwnedIndex index;
  private final Inbox inbox;
  private final Ownership ownership;
  private final ScheduledExecutorService timer;
  private final BooleanSupplier readyToFire;
  private final OwnerContext context;

  /** A chain of steps is scheduled or under way; set under the lock, cleared by the chain. */
  private volatile boolean scheduled;

  // What the chain under way has read, for its log line: reset when a chain starts, then added to
  // by its steps, which run one after another (handed on through the timer, so no two at once).
  private long chainStartNanos;
  private int chainSegments;
  private long chainEntries;

  /**
   * @param readyToFire whether the scheduler runs and has recovered; read under the lock
   */
  StandbyFill(
      ReentrantLock lock,
      OwnedIndex index,
      Inbox inbox,
      Ownership ownership,
      ScheduledExecutorService timer,
      BooleanSupplier readyToFire,
      OwnerContext context) {
    this.lock = lock;
    this.index = index;
    this.inbox = inbox;
    this.ownership = ownership;
    this.timer = timer;
    this.readyToFire = readyToFire;
    this.context = context;
  }

  /**
   * Whether this node could fire every segment the topology makes it primary owner of at once; see
   * {@link Scheduler#armedForShare()}. Takes the lock.
   */
  boolean armedForShare() {
    lock.lock();
    try {
      if (!readyToFire.getAsBoolean() || !index.standby().enabled()) {
        return false;
      }
      inbox.drainInto(index);
      // Asked every 250 ms while a joiner holds back: its hints are read without waiting for the
      // periodic run. Settled too: mid-rebalance a joiner holds the whole replica before it is
      // primary owner of its share, and would announce itself with none of it read (seen at 1 M).
      startIfNeeded();
      if (!ownership.holdsWholeReplica() || !ownership.topologySettled()) {
        return false;
      }
      BitSet share = ownership.topologyPrimarySegments();
      share.andNot(index.owned());
      return index.standby().covers(share);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Under the lock, from the scheduler's periodic run and a holding-back joiner's question, when
   * some segment is left to read (never with standby hints off): driven by hand, fills every
   * segment now; with a timer, starts a chain of steps unless one is under way.
   */
  void startIfNeeded() {
    if (!index.standby().needsFill(index.owned(), ownership.segmentCount())) {
      return;
    }
    if (timer == null) {
      fillAll();
    } else if (!scheduled && readyToFire.getAsBoolean()) {
      scheduled = true;
      chainStartNanos = System.nanoTime();
      chainSegments = 0;
      chainEntries = 0;
      schedule();
    }
  }

  /** Under the lock: every step now; nothing when standby hints are off. */
  void fillAll() {
    if (!index.standby().enabled()) {
      return;
    }
    for (StandbyHints.FillStep step = next(); step != null; step = next()) {
      index.standby().fill(step, index.readSegments(step.segments()));
    }
  }

  /** Under the lock, when the scheduler stops: the chain ends with it. */
  void stop() {
    scheduled = false;
  }

  /** One step on the timer; schedules the next while there is one. */
  private void step() {
    boolean more = false;
    ClassLoader previous = context.enter();
    try {
      more = readAndApplyStep();
    } catch (RuntimeException e) {
      LOG.warnf("BELFRY-0344 Reading standby hints failed, tried again later: %s", e.toString());
    } finally {
      context.leave(previous);
      if (!more) {
        scheduled = false;
        logChain();
      }
    }
    if (more) {
      schedule();
    }
  }

  /** Returns whether a step was applied (and another may follow). */
  private boolean readAndApplyStep() {
    StandbyHints.FillStep step;
    lock.lock();
    try {
      step = next();
    } finally {
      lock.unlock();
    }
    if (step == null) {
      return false;
    }
    List<List<OwnedIndex.Observed>> found;
    try {
      found = index.readSegments(step.segments());
    } catch (RuntimeException e) {
      lock.lock();
      try {
        index.standby().abandon(step);
      } finally {
        lock.unlock();
      }
      throw e;
    }
    lock.lock();
    try {
      if (!readyToFire.getAsBoolean()) {
        return false;
      }
      // An invalidation or a gain queued meanwhile is applied first; so are writes of the step's
      // segments, which the step's older read never replaces.
      inbox.drainInto(index);
      index.standby().fill(step, found);
      chainSegments += step.segments().cardinality();
      chainEntries += found.stream().mapToLong(List::size).sum();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * How long a chain took to read the segments this node does not own: on a joiner that holds back,
   * most of the time between holding the whole replica and firing its share.
   */
  private void logChain() {
    if (chainSegments > 0) {
      LOG.infof(
          "BELFRY-0346 Standby hints read for %d segments (%d entries) in %d ms",
          chainSegments, chainEntries, (System.nanoTime() - chainStartNanos) / 1_000_000);
    }
  }

  /** Under the lock: the next step, or null when there is none to take now. */
  private StandbyHints.FillStep next() {
    if (!readyToFire.getAsBoolean() || !ownership.holdsWholeReplica()) {
      return null;
    }
    inbox.drainInto(index);
    // A joiner that holds back reads the segments it will own first (ReadyEngines).
    return index
        .standby()
        .nextFillStep(index.owned(), ownership.segmentCount(), ownership.topologyPrimarySegments());
  }

  private void schedule() {
    try {
      timer.schedule(this::step, 0, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      LOG.debugf("BELFRY-0345 Timer rejected a standby fill step; stopping?");
      scheduled = false;
    }
  }
}
