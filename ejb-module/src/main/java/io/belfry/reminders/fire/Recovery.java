package io.belfry.reminders.fire;

import io.belfry.reminders.model.HybridLogicalClock;
import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.schedule.Clock;
import io.belfry.reminders.store.ReminderStore;
import java.util.BitSet;
import org.jboss.logging.Logger;

/**
 * Recovery at start: reads the local replica, advances the clock past every version stored and arms
 * the owned pending ones. All at once when the scheduler is driven by hand; in {@value
 * #SEGMENTS_PER_STEP}-segment steps in automatic mode, so that on a large store the first overdue
 * reminders fire after the first step, not after the whole scan.
 *
 * <p>It also draws the line the resurrection guard needs: once every stored version has been seen,
 * the ones above the newest were minted while this node ran, and only those below {@link
 * #mintedBeforeStart()} can have come back with a restart. Until recovery ends every version is
 * below it, since the newest stored is not known yet.
 *
 * <p>Not thread-safe but for {@link #recovered()}: used under the scheduler's lock.
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

  /** Segments that stepwise recovery has still to read; empty once recovered. */
  private final BitSet unrecovered = new BitSet();

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
  }

  /** Starts over: nothing recovered, every version suspect. */
  void begin() {
    mintedBeforeStart = Long.MAX_VALUE;
    startNanos = System.nanoTime();
    armed = 0;
    recovered = false;
  }

  /** Reads every segment now and ends recovery. */
  void readAll() {
    armed = read(null);
    end();
  }

  /** Leaves all {@code segmentCount} segments to {@link #readNextStep()}. */
  void planSteps(int segmentCount) {
    unrecovered.set(0, segmentCount);
  }

  boolean hasStepsLeft() {
    return !unrecovered.isEmpty();
  }

  /**
   * Reads the next {@value #SEGMENTS_PER_STEP} unread segments, and ends recovery after the last.
   * Returns false, with the segments still unread, if the store failed.
   */
  boolean readNextStep() {
    BitSet step = new BitSet();
    for (int s = unrecovered.nextSetBit(0), n = 0;
        s >= 0 && n < SEGMENTS_PER_STEP;
        s = unrecovered.nextSetBit(s + 1), n++) {
      step.set(s);
    }
    try {
      armed += read(step);
      unrecovered.andNot(step);
    } catch (RuntimeException e) {
      // the same segments again after a pause: a cache that is not available yet, say
      LOG.warnf("BELFRY-0341 Recovery of segments %s failed, retried: %s", step, e.toString());
      return false;
    }
    if (unrecovered.isEmpty()) {
      end();
    }
    return true;
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
    unrecovered.clear();
    recovered = false;
  }

  /**
   * Reads the stored entries of {@code segments} ({@code null}: all): advances the clock past each
   * version and arms the owned ones. Returns how many were armed.
   */
  private int read(BitSet segments) {
    int[] armedHere = {0};
    store.forEachLocal(
        segments,
        (key, value) -> {
          long version;
          try {
            version = ReminderCodec.versionOf(value);
          } catch (RuntimeException e) {
            LOG.errorf(e, "BELFRY-0301 Unreadable entry %s ignored", key);
            return;
          }
          versions.observe(version);
          if (index.armIfOwned(key, value)) {
            armedHere[0]++;
          }
        });
    return armedHere[0];
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
