package io.belfry.web.console.reminders;

import io.belfry.reminders.api.Reminder;
import io.belfry.reminders.api.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * A schedule in words for the grid: {@code once}, {@code every 15 min until 2026-12-01}, {@code
 * cron 0 9 * * MON-FRI Europe/Paris}, {@code 5 times every 1 h from 2026-11-21 09:00 UTC}.
 */
public final class ScheduleWords {

  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MINUTE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

  private ScheduleWords() {}

  public static String of(Reminder reminder) {
    Schedule schedule = reminder.schedule();
    String base;
    if (schedule instanceof Schedule.Every every) {
      base = "every " + duration(every.interval());
    } else if (schedule instanceof Schedule.Cron cron) {
      base = "cron " + cron.expression() + " " + cron.zone().getId();
    } else if (schedule instanceof Schedule.Repeat repeat) {
      base =
          (repeat.repetitions() == null ? "" : repeat.repetitions() + " times ")
              + "every "
              + duration(repeat.period())
              + " from "
              + MINUTE.format(repeat.start());
    } else {
      return "once";
    }
    List<String> limits = new ArrayList<>();
    if (reminder.until() != null) {
      limits.add("until " + day(reminder.until()));
    }
    if (reminder.maxOccurrences() != null) {
      limits.add("at most " + reminder.maxOccurrences() + " times");
    }
    return limits.isEmpty() ? base : base + " " + String.join(", ", limits);
  }

  /** {@code 15 min}, {@code 1 h 30 min}, {@code 2 d}, {@code 500 ms}. */
  public static String duration(Duration d) {
    if (d.isZero()) {
      return "0 s";
    }
    if (d.toMillis() < 1000) {
      return d.toMillis() + " ms";
    }
    List<String> parts = new ArrayList<>();
    if (d.toDaysPart() > 0) {
      parts.add(d.toDaysPart() + " d");
    }
    if (d.toHoursPart() > 0) {
      parts.add(d.toHoursPart() + " h");
    }
    if (d.toMinutesPart() > 0) {
      parts.add(d.toMinutesPart() + " min");
    }
    if (d.toSecondsPart() > 0) {
      parts.add(d.toSecondsPart() + " s");
    }
    return String.join(" ", parts);
  }

  /** How far {@code at} is from {@code now}: {@code in 3 min}, {@code 2 h ago}. */
  public static String relative(Instant at, Instant now) {
    Duration between = Duration.between(now, at);
    Duration rounded = Duration.ofSeconds(Math.abs(between.getSeconds()));
    if (rounded.toHours() > 0) {
      rounded = Duration.ofMinutes(rounded.toMinutes());
    }
    if (rounded.toDays() > 0) {
      rounded = Duration.ofHours(rounded.toHours());
    }
    String amount = rounded.isZero() ? "now" : duration(rounded);
    if (rounded.isZero()) {
      return amount;
    }
    return between.isNegative() ? amount + " ago" : "in " + amount;
  }

  static String day(Instant at) {
    return DAY.format(at);
  }
}
