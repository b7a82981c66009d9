package io.belfry.reminders.config;

import io.belfry.reminders.fire.EngineSettings;
import io.belfry.reminders.schedule.ScheduleParser;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.function.Function;

/**
 * The engine's settings on a server: each knob is a system property (set with {@code -D} on the
 * server, or as a system property in the server's configuration), with the defaults of {@link
 * EngineSettings}. Documented in {@code docs/configuration.md}. A malformed value stops the
 * deployment with a message naming the property, rather than silently using the default.
 */
public final class BelfrySettings {

  public static final String SCAN_INTERVAL = "belfry.scan-interval";
  public static final String TOMBSTONE_TTL = "belfry.tombstone-ttl";
  public static final String BACKFILL_RATE = "belfry.backfill-rate";
  public static final String BACKLOG_LATENESS = "belfry.backlog-lateness";

  private BelfrySettings() {}

  /** The settings from system properties, defaults for what is not set. */
  public static EngineSettings fromSystemProperties() {
    EngineSettings d = EngineSettings.DEFAULTS;
    return new EngineSettings(
        read(SCAN_INTERVAL, BelfrySettings::duration, d.scanInterval()),
        read(TOMBSTONE_TTL, BelfrySettings::duration, d.tombstoneTtl()),
        read(BACKFILL_RATE, Integer::valueOf, d.backfillRatePerSecond()),
        read(BACKLOG_LATENESS, BelfrySettings::duration, d.backlogLateness()),
        d.sweepSegmentsPerScan(),
        d.maxFiresPerRun());
  }

  /** Durations as reminders take them: {@code PT1S}, {@code 1s}, {@code 500ms}, or {@code 0}. */
  private static Duration duration(String text) {
    return "0".equals(text) ? Duration.ZERO : ScheduleParser.parseInterval(text);
  }

  private static <T> T read(String property, Function<String, T> parse, T fallback) {
    String value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return parse.apply(value.trim());
    } catch (IllegalArgumentException | DateTimeParseException e) {
      throw new IllegalStateException(
          "system property " + property + "='" + value + "' is not valid: " + e.getMessage(), e);
    }
  }
}
