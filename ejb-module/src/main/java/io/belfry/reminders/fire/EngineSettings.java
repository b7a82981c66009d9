package io.belfry.reminders.fire;

import java.time.Duration;
import java.util.Objects;

/**
 * The engine's knobs, each with a named default.
 *
 * @param scanInterval how often the safety sweep runs (and re-arms missed entries)
 * @param tombstoneTtl how long tombstones are kept before they are purged
 * @param backfillRatePerSecond per node, how many overdue fires may start per second
 * @param backlogLateness how late a fire must be to count as backlog (and be rate limited)
 * @param sweepSegmentsPerScan how many segments one sweep visits; a full pass over all segments
 *     takes {@code segmentCount / sweepSegmentsPerScan} scan intervals, which bounds the sweep's
 *     cost per interval at a million reminders
 * @param maxFiresPerRun at most this many commits per scheduler run, so that a run yields to
 *     topology and write hand-offs
 * @param standbyHints whether each node also keeps hints for the segments it does not own, so that
 *     it arms segments it gains from memory rather than from its file store (a shorter hold of the
 *     scheduler's lock when an owner dies, for the heap of a hint per reminder of the cluster)
 */
public record EngineSettings(
    Duration scanInterval,
    Duration tombstoneTtl,
    int backfillRatePerSecond,
    Duration backlogLateness,
    int sweepSegmentsPerScan,
    int maxFiresPerRun,
    boolean standbyHints) {

  public static final Duration DEFAULT_SCAN_INTERVAL = Duration.ofSeconds(1);
  public static final Duration DEFAULT_TOMBSTONE_TTL = Duration.ofHours(1);
  public static final int DEFAULT_BACKFILL_RATE_PER_SECOND = 1_000;
  public static final Duration DEFAULT_BACKLOG_LATENESS = Duration.ofSeconds(1);

  /** 256 segments / 32 = a full pass every 8 scan intervals (8 s by default). */
  public static final int DEFAULT_SWEEP_SEGMENTS_PER_SCAN = 32;

  public static final int DEFAULT_MAX_FIRES_PER_RUN = 10_000;

  /**
   * On: with owned hints kept per segment, a survivor or a joiner takes the segments it gains from
   * memory without per-hint work; after a kill at a million reminders on three WildFly nodes the
   * dead node's burst fired at most 1.4 s late with them and 4.2 s without, for a hint per reminder
   * of the cluster in every node's heap, as one node holds (docs/performance/cluster.md).
   */
  public static final boolean DEFAULT_STANDBY_HINTS = true;

  public static final EngineSettings DEFAULTS =
      new EngineSettings(
          DEFAULT_SCAN_INTERVAL,
          DEFAULT_TOMBSTONE_TTL,
          DEFAULT_BACKFILL_RATE_PER_SECOND,
          DEFAULT_BACKLOG_LATENESS,
          DEFAULT_SWEEP_SEGMENTS_PER_SCAN,
          DEFAULT_MAX_FIRES_PER_RUN,
          DEFAULT_STANDBY_HINTS);

  public EngineSettings {
    requirePositive(scanInterval, "scanInterval");
    requirePositive(tombstoneTtl, "tombstoneTtl");
    Objects.requireNonNull(backlogLateness, "backlogLateness");
    if (backlogLateness.isNegative()) {
      throw new IllegalArgumentException("backlogLateness must not be negative");
    }
    if (backfillRatePerSecond < 1) {
      throw new IllegalArgumentException("backfillRatePerSecond must be >= 1");
    }
    if (sweepSegmentsPerScan < 1) {
      throw new IllegalArgumentException("sweepSegmentsPerScan must be >= 1");
    }
    if (maxFiresPerRun < 1) {
      throw new IllegalArgumentException("maxFiresPerRun must be >= 1");
    }
  }

  public EngineSettings withScanInterval(Duration value) {
    return new EngineSettings(
        value,
        tombstoneTtl,
        backfillRatePerSecond,
        backlogLateness,
        sweepSegmentsPerScan,
        maxFiresPerRun,
        standbyHints);
  }

  public EngineSettings withTombstoneTtl(Duration value) {
    return new EngineSettings(
        scanInterval,
        value,
        backfillRatePerSecond,
        backlogLateness,
        sweepSegmentsPerScan,
        maxFiresPerRun,
        standbyHints);
  }

  public EngineSettings withBackfillRatePerSecond(int value) {
    return new EngineSettings(
        scanInterval,
        tombstoneTtl,
        value,
        backlogLateness,
        sweepSegmentsPerScan,
        maxFiresPerRun,
        standbyHints);
  }

  public EngineSettings withSweepSegmentsPerScan(int value) {
    return new EngineSettings(
        scanInterval,
        tombstoneTtl,
        backfillRatePerSecond,
        backlogLateness,
        value,
        maxFiresPerRun,
        standbyHints);
  }

  public EngineSettings withStandbyHints(boolean value) {
    return new EngineSettings(
        scanInterval,
        tombstoneTtl,
        backfillRatePerSecond,
        backlogLateness,
        sweepSegmentsPerScan,
        maxFiresPerRun,
        value);
  }

  private static void requirePositive(Duration d, String what) {
    Objects.requireNonNull(d, what);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(what + " must be positive, was " + d);
    }
  }
}
