package io.belfry.reminders.fire;

import io.belfry.reminders.model.HybridLogicalClock;
import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.schedule.Clock;
import io.belfry.reminders.store.ReminderStore;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Recovery at start: reads the local replica, advances the clock past every version stored and arms
 * the owned pending ones. All at once when the scheduler is driven by hand; in steps in automatic
 * mode, so that on a large store the first overdue reminders fire after the first step, not after
 * the whole scan. The steps take the segments in the {@link RecoveryOrder} this node recorded while
 * it last ran, the segment that held the earliest due reminder first, and the first steps are small
 * (one segment, then two, then four): an overdue reminder fires once about a 256th of the store has
 * been read, wherever its segment lies.
 *
 * <p>It also draws the line the resurrection guard needs: once every stored version has been seen,
 * the ones above the newest were minted while this node ran, and only those below {@link
 * #mintedBeforeStart()} can have come back with a restart. Until recovery ends every version is
 * below it, since the newest stored is not known yet.
 *
 * <p>Not thread-safe but for {@link #recovered()} and {@link #read}: used under the scheduler's
 * lock, except that a step reads its segments without it.
 */
final class Recovery {

  // The scheduler's log category, as before these classes were split out of it.
  private static final Logger LOG = Logger.getLogger(Scheduler.class);

  /** How far ahead another node's clock may run; see {@link #mintedBeforeStart}. */
  private static final long CLOCK_SKEW_MARGIN_MILLIS = 5_000;

  /** Segments read per step: a step of 1/32 of a large store takes well under a second. */
  static final int SEGMENTS_PER_STEP = 8;

  private final ReminderStore store;
  private final HybridLogicalClock versions;
  private final Clock clock;
  private final OwnedIndex index;
  private final RecoveryOrder order;

  /** The segments in the order the steps read them; see {@link RecoveryOrder}. */
  private int[] stepOrder = new int[0];

  /** Segments that stepwise recovery has still to read; empty once recovered. */
  private final BitSet unrecovered = new BitSet();

  /** Counts {@link #begin()}s, so that a step read before a restart is not armed after it. */
  private int generation;

  private long startNanos;
  private int armed;

  /** Read without the lock, which a recovery step holds while it reads a store. */
  private volatile boolean recovered;

  /**
   * Versions up to this one were minted before this node started (with a margin for clocks that run
   * ahead): a restart may have brought them back, so they are checked by the {@link
   * ResurrectionGuard} before they fire. Versions above were written while this node ran.
   */
  private long mintedBeforeStart = Long.MAX_VALUE;

  Recovery(ReminderStore store, HybridLogicalClock versions, Clock clock, OwnedIndex index) {
    this.store = store;
    this.versions = versions;
    this.clock = clock;
    this.index = index;
    this.order = new RecoveryOrder(store.fileBesideStore(RecoveryOrder.FILE));
  }

  /** Starts over: nothing recovered, every version suspect. */
  void begin() {
    generation++;
    mintedBeforeStart = Long.MAX_VALUE;
    startNanos = System.nanoTime();
    armed = 0;
    recovered = false;
  }

  /**
   * Reads every segment now and ends recovery; under the lock (the scheduler driven by hand).
   * Returns how many entries it read.
   */
  long readAll() {
    Step all = new Step(generation, null);
    StepRead read = read(all);
    arm(all, read);
    return read.visited();
  }

  /**
   * Leaves all {@code segmentCount} segments to stepwise recovery ({@link #nextStep()}), in the
   * recorded order.
   */
  void planSteps(int segmentCount) {
    unrecovered.set(0, segmentCount);
    stepOrder = order.read(segmentCount);
  }

  boolean hasStepsLeft() {
    return !unrecovered.isEmpty();
  }

  /**
   * The segments of one step of stepwise recovery, of the recovery begun as {@code generation}
   * ({@code null} segments: all of them).
   */
  record Step(int generation, BitSet segments) {}

  /** What {@link #read} found of a step: the entries to arm, and how many entries it visited. */
  record StepRead(List<OwnedIndex.Observed> found, long visited) {}

  /**
   * The next unread segments in the recorded order, as many as have been read before, plus one, up
   * to {@value #SEGMENTS_PER_STEP}: the first step reads the segment that held the earliest due
   * reminder alone, and the next ones 2, 4, then 8 segments. Under the lock. A step that failed is
   * taken again.
   */
  Step nextStep() {
    int read = stepOrder.length - unrecovered.cardinality();
    int size = Math.min(SEGMENTS_PER_STEP, read + 1);
    BitSet step = new BitSet();
    for (int i = 0; i < stepOrder.length && step.cardinality() < size; i++) {
      if (unrecovered.get(stepOrder[i])) {
        step.set(stepOrder[i]);
      }
    }
    return new Step(generation, step);
  }

  /**
   * Records {@code earliestDue}, each segment's earliest due time, as the order of the next start's
   * steps ({@code null}: nothing to record); without the lock, since it writes a file.
   */
  void recordOrder(long[] earliestDue) {
    order.record(earliestDue);
  }

  /**
   * Reads a step's stored entries, advances the clock past each version and decodes what each asks
   * of the index. Without the scheduler's lock: reading a store is the slow part of recovery, and
   * runs that fire wait for that lock. A write that lands meanwhile reaches the index through the
   * inbox, and {@link #arm} never arms an entry over a newer version. Throws if the store fails.
   */
  StepRead read(Step step) {
    List<OwnedIndex.Observed> found = new ArrayList<>();
    long[] visited = {0};
    BitSet segments = step.segments();
    if (segments == null) {
      segments = new BitSet();
      segments.set(0, index.segmentCount());
    }
    // Segment by segment, so that every hint armed is tagged with its key's segment.
    store.forEachLocalBySegment(
        segments,
        (segment, key, value) -> {
          visited[0]++;
          long version;
          try {
            version = ReminderCodec.versionOf(value);
          } catch (RuntimeException e) {
            LOG.errorf(e, "BELFRY-0301 Unreadable entry %s ignored", key);
            return;
          }
          versions.observe(version);
          OwnedIndex.Observed entry = index.observe(index.keptKey(key), value, segment);
          if (entry != null) {
            found.add(entry);
          }
        });
    return new StepRead(found, visited[0]);
  }

  /**
   * Arms the owned entries a step {@link #read} and marks its segments read, ending recovery after
   * the last; under the lock. Does nothing if recovery began again since the step was taken (its
   * segments are read again then).
   */
  void arm(Step step, StepRead read) {
    if (step.generation() != generation) {
      return;
    }
    for (OwnedIndex.Observed entry : read.found()) {
      if (index.armIfOwned(entry)) {
        armed++;
      }
    }
    if (step.segments() == null) {
      unrecovered.clear();
    } else {
      unrecovered.andNot(step.segments());
    }
    if (unrecovered.isEmpty()) {
      end();
    }
  }

  /** Whether recovery has read every segment since the last {@link #begin()}. */
  boolean recovered() {
    return recovered;
  }

  long mintedBeforeStart() {
    return mintedBeforeStart;
  }

  /** Abandons the steps left; the next start begins again. */
  void stop() {
    generation++;
    unrecovered.clear();
    recovered = false;
  }

  /** Every stored version has been seen: the ones above the newest were minted while running. */
  private void end() {
    recovered = true;
    mintedBeforeStart =
        HybridLogicalClock.pack(
            Math.max(HybridLogicalClock.millisOf(versions.lastVersion()), clock.millis())
                + CLOCK_SKEW_MARGIN_MILLIS,
            0);
    LOG.infof(
        "BELFRY-0340 Recovery done in %d ms: %d reminders armed, %d segments owned",
        (System.nanoTime() - startNanos) / 1_000_000, armed, index.owned().cardinality());
  }
}
