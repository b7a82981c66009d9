package io.belfry.reminders.config;

import io.belfry.reminders.fire.AtLeastOnceSettings;
import io.belfry.reminders.fire.EngineSettings;
import io.belfry.reminders.fire.RetryPolicy;
import io.belfry.reminders.schedule.ScheduleParser;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
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
  public static final String LEASE = "belfry.delivery.lease";
  public static final String STANDBY_HINTS = "belfry.standby-hints";

  /** Global retry settings: {@code belfry.retry.max-attempts} and so on. */
  public static final String RETRY_PREFIX = "belfry.retry.";

  /**
   * Per-namespace retry settings, which win over the global ones: {@code
   * belfry.namespace.<namespace>.retry.max-attempts} and so on.
   */
  public static final String NAMESPACE_PREFIX = "belfry.namespace.";

  static final String MAX_ATTEMPTS = "max-attempts";
  static final String INITIAL_DELAY = "initial-delay";
  static final String MULTIPLIER = "multiplier";
  static final String MAX_DELAY = "max-delay";

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
        d.maxFiresPerRun(),
        read(STANDBY_HINTS, BelfrySettings::bool, d.standbyHints()));
  }

  /**
   * Leases and retry policies of at-least-once deliveries from system properties. Every retry
   * property present is read now, per namespace too, so a malformed one stops the deployment rather
   * than the first retry.
   */
  public static AtLeastOnceSettings atLeastOnceFromSystemProperties() {
    Duration lease = read(LEASE, BelfrySettings::duration, AtLeastOnceSettings.DEFAULT_LEASE);
    RetryPolicy global = retryPolicy(RETRY_PREFIX, RetryPolicy.DEFAULT);
    Map<String, RetryPolicy> perNamespace = new HashMap<>();
    for (String property : System.getProperties().stringPropertyNames()) {
      int retry = property.lastIndexOf(".retry.");
      if (property.startsWith(NAMESPACE_PREFIX) && retry > NAMESPACE_PREFIX.length()) {
        String namespace = property.substring(NAMESPACE_PREFIX.length(), retry);
        perNamespace.computeIfAbsent(
            namespace, ns -> retryPolicy(NAMESPACE_PREFIX + ns + ".retry.", global));
      }
    }
    try {
      return new AtLeastOnceSettings(lease, ns -> perNamespace.getOrDefault(ns, global));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("system property " + LEASE + ": " + e.getMessage(), e);
    }
  }

  private static RetryPolicy retryPolicy(String prefix, RetryPolicy fallback) {
    try {
      return new RetryPolicy(
          read(prefix + MAX_ATTEMPTS, Integer::valueOf, fallback.maxAttempts()),
          read(prefix + INITIAL_DELAY, BelfrySettings::duration, fallback.initialDelay()),
          read(prefix + MULTIPLIER, Double::valueOf, fallback.multiplier()),
          read(prefix + MAX_DELAY, BelfrySettings::duration, fallback.maxDelay()));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("system properties " + prefix + "*: " + e.getMessage(), e);
    }
  }

  /**
   * A duration system property of another Belfry component, read as the engine's are ({@code
   * PT15M}, {@code 15m}, {@code 500ms}); {@code fallback} when unset.
   *
   * @throws IllegalStateException naming the property when the value does not parse
   */
  public static Duration durationProperty(String property, Duration fallback) {
    return read(property, BelfrySettings::duration, fallback);
  }

  /** A whole-number system property, as {@link #durationProperty} reads a duration. */
  public static int intProperty(String property, int fallback) {
    return read(property, Integer::valueOf, fallback);
  }

  /** Durations as reminders take them: {@code PT1S}, {@code 1s}, {@code 500ms}, or {@code 0}. */
  private static Duration duration(String text) {
    return "0".equals(text) ? Duration.ZERO : ScheduleParser.parseInterval(text);
  }

  /** {@code true} or {@code false}; anything else is refused, not read as false. */
  private static Boolean bool(String text) {
    if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
      return Boolean.valueOf(text);
    }
    throw new IllegalArgumentException("expected true or false");
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
