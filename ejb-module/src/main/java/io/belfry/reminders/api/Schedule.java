package io.belfry.reminders.api;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

/**
 * When a reminder fires after its first time. A closed set of kinds, so that every part of Belfry
 * (recurrence math, codec, REST, console) handles each kind explicitly.
 */
public sealed interface Schedule {

  /** Fires once, at the reminder's first fire time. */
  record Once() implements Schedule {}

  /** Fires every {@code interval}, counted from the scheduled (not the actual) fire time. */
  record Every(Duration interval) implements Schedule {}

  /** Fires at the times a Unix cron expression matches, read in {@code zone}. */
  record Cron(String expression, ZoneId zone) implements Schedule {}

  /**
   * An ISO 8601 repeating interval {@code R[n]/start/period}: fires at {@code start}, then every
   * {@code period}; {@code repetitions} occurrences in all, or unbounded when {@code null}.
   */
  record Repeat(Instant start, Duration period, Integer repetitions) implements Schedule {}
}
