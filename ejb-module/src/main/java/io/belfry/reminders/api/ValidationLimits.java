package io.belfry.reminders.api;

import io.belfry.reminders.schedule.ScheduleParser;
import java.time.Duration;

/**
 * The configurable limits that validation of {@link ReminderRequest} applies, each with a named
 * default and a system property that overrides it (set it in the server, e.g. {@code
 * -Dbelfry.payload-max-bytes=131072} or with the CLI {@code
 * /system-property=belfry.min-interval:add(value=1s)}).
 *
 * <p>The properties are read at every validation, not cached: reading a system property is cheap
 * next to a replicated write, and tests and operators see a change without a redeploy. An
 * unparseable value fails loudly (an {@link IllegalStateException} naming the property) rather than
 * silently falling back to a default the operator did not ask for.
 */
public final class ValidationLimits {

  /** Shortest interval a recurring reminder may have, unless overridden. */
  public static final Duration MIN_INTERVAL = Duration.ofMillis(100);

  /** Largest payload in bytes, unless overridden: 64 KiB. */
  public static final int MAX_PAYLOAD_BYTES = 64 * 1024;

  /**
   * How far from now a fire time, end time or delay may reach: 100 years of 365.25 days. Not
   * configurable; it only keeps instants far from the ends of what the store and clocks represent.
   */
  public static final Duration MAX_HORIZON = Duration.ofDays(36_525);

  /**
   * Overrides {@link #MIN_INTERVAL}; any interval form: {@code 1s}, {@code PT0.5S}, {@code 250}.
   */
  public static final String MIN_INTERVAL_PROPERTY = "belfry.min-interval";

  /** Overrides {@link #MAX_PAYLOAD_BYTES}; a positive number of bytes. */
  public static final String MAX_PAYLOAD_BYTES_PROPERTY = "belfry.payload-max-bytes";

  private ValidationLimits() {}

  /** The shortest interval allowed for {@code every} and the period of {@code repeat}. */
  public static Duration minInterval() {
    String configured = System.getProperty(MIN_INTERVAL_PROPERTY);
    if (configured == null || configured.isBlank()) {
      return MIN_INTERVAL;
    }
    try {
      return ScheduleParser.parseInterval(configured);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          "system property "
              + MIN_INTERVAL_PROPERTY
              + " is not a valid interval: "
              + e.getMessage(),
          e);
    }
  }

  /** The largest payload allowed, in bytes. */
  public static int maxPayloadBytes() {
    String configured = System.getProperty(MAX_PAYLOAD_BYTES_PROPERTY);
    if (configured == null || configured.isBlank()) {
      return MAX_PAYLOAD_BYTES;
    }
    try {
      int bytes = Integer.parseInt(configured.trim());
      if (bytes < 0) {
        throw new NumberFormatException("negative");
      }
      return bytes;
    } catch (NumberFormatException e) {
      throw new IllegalStateException(
          "system property "
              + MAX_PAYLOAD_BYTES_PROPERTY
              + " must be a non-negative number of bytes, was '"
              + configured
              + "'",
          e);
    }
  }
}
