package io.belfry.reminders.api;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;

/**
 * When a reminder fires after its first time. A closed set of kinds, so that every part of Belfry
 * (recurrence math, codec, REST, console) handles each kind explicitly.
 *
 * <p>The records check only what needs no parsing (presence, positive durations, positive counts);
 * {@code io.belfry.reminders.schedule.ScheduleParser} builds them from user text and also checks
 * cron syntax, so that its messages can name the part that is wrong.
 */
public sealed interface Schedule {

  /**
   * The schedule in words, as the API and console show it: {@code once}, {@code every PT15M},
   * {@code cron 0 9 * * MON-FRI Europe/Paris}, {@code R5/2026-11-21T09:00:00Z/PT1H}.
   */
  default String text() {
    if (this instanceof Every every) {
      return "every " + every.interval();
    }
    if (this instanceof Cron cron) {
      return "cron " + cron.expression() + " " + cron.zone().getId();
    }
    if (this instanceof Repeat repeat) {
      return "R"
          + (repeat.repetitions() == null ? "" : repeat.repetitions())
          + "/"
          + repeat.start()
          + "/"
          + repeat.period();
    }
    return "once";
  }

  /** Fires once, at the reminder's first fire time. */
  record Once() implements Schedule {}

  /** Fires every {@code interval}, counted from the scheduled (not the actual) fire time. */
  record Every(Duration interval) implements Schedule {
    public Every {
      requirePositive(interval, "interval");
    }
  }

  /** Fires at the times a Unix cron expression matches, read in {@code zone}. */
  record Cron(String expression, ZoneId zone) implements Schedule {
    public Cron {
      Objects.requireNonNull(expression, "cron expression is required");
      Objects.requireNonNull(zone, "cron time zone is required");
    }
  }

  /**
   * An ISO 8601 repeating interval {@code R[n]/start/period}: fires at {@code start}, then every
   * {@code period}; {@code repetitions} occurrences in all, or unbounded when {@code null}.
   */
  record Repeat(Instant start, Duration period, Integer repetitions) implements Schedule {
    public Repeat {
      Objects.requireNonNull(start, "repeating interval start is required");
      requirePositive(period, "repeating interval period");
      if (repetitions != null && repetitions < 1) {
        throw new IllegalArgumentException(
            "repeating interval must have at least 1 repetition, was " + repetitions);
      }
    }
  }

  private static void requirePositive(Duration duration, String what) {
    Objects.requireNonNull(duration, what + " is required");
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(what + " must be positive, was " + duration);
    }
  }
}
