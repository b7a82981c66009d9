package io.belfry.reminders.schedule;

import io.belfry.reminders.api.Schedule;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds {@link Schedule}s from the text users type in the REST API and the console. Every
 * rejection is an {@link IllegalArgumentException} whose message quotes the input and says what is
 * wrong with it, because these messages are shown to users as they are.
 */
public final class ScheduleParser {

  /** Short form: one or more number+unit parts, largest unit first: 1h30m, 2d, 90s, 500ms. */
  private static final Pattern SHORT_INTERVAL = Pattern.compile("(?:\\d+(?:ms|[dhms]))+");

  private static final Pattern SHORT_PART = Pattern.compile("(\\d+)(ms|[dhms])");

  private static final Pattern MILLISECONDS = Pattern.compile("\\d+");

  /** Units of the short form, largest first; the order they must appear in. */
  private static final List<String> SHORT_UNITS = List.of("d", "h", "m", "s", "ms");

  private static final Pattern REPEATING = Pattern.compile("R(\\d*)/([^/]+)/([^/]+)");

  private ScheduleParser() {}

  /**
   * Parses a positive interval: ISO 8601 ({@code PT15M}, {@code P1DT2H}), the short form ({@code
   * 15m}, {@code 90s}, {@code 1h30m}, {@code 2d}, {@code 500ms}; units d, h, m, s, ms, largest
   * first, each at most once), or a bare number of milliseconds ({@code 60000}).
   *
   * @throws IllegalArgumentException if the text is none of these, or not positive
   */
  public static Duration parseInterval(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("interval is empty");
    }
    String trimmed = text.trim();
    if (trimmed.startsWith("-")) {
      throw new IllegalArgumentException("interval '" + text + "' must be positive");
    }
    Duration interval;
    try {
      if (trimmed.startsWith("P") || trimmed.startsWith("p")) {
        interval = parseIso(trimmed);
      } else if (MILLISECONDS.matcher(trimmed).matches()) {
        interval = Duration.ofMillis(Long.parseLong(trimmed));
      } else if (SHORT_INTERVAL.matcher(trimmed.toLowerCase(Locale.ROOT)).matches()) {
        interval = parseShort(trimmed);
      } else {
        throw new IllegalArgumentException(
            "interval '"
                + text
                + "' is not an ISO 8601 duration (PT15M), a short form (15m, 1h30m, 500ms) or"
                + " a number of milliseconds");
      }
    } catch (NumberFormatException | ArithmeticException tooLarge) {
      throw new IllegalArgumentException("interval '" + text + "' is too large", tooLarge);
    }
    if (interval.isZero() || interval.isNegative()) {
      throw new IllegalArgumentException("interval '" + text + "' must be positive");
    }
    return interval;
  }

  /** An {@link Schedule.Every} of {@link #parseInterval(String) interval}. */
  public static Schedule.Every every(String interval) {
    return new Schedule.Every(parseInterval(interval));
  }

  /**
   * A Unix 5-field cron schedule ({@code minute hour day-of-month month day-of-week}) read on the
   * wall clock of {@code zone}.
   *
   * @throws IllegalArgumentException naming the part of the expression that is wrong, as the cron
   *     library reports it, or saying that it never matches
   */
  public static Schedule.Cron cron(String expression, ZoneId zone) {
    WallClockCron.parse(expression, zone);
    return new Schedule.Cron(expression.trim(), zone);
  }

  /**
   * Like {@link #cron(String, ZoneId)}, with the zone as a region id ({@code Europe/Paris}) or an
   * offset ({@code Z}, {@code +02:00}).
   */
  public static Schedule.Cron cron(String expression, String zone) {
    return cron(expression, parseZone(zone));
  }

  /**
   * Parses an ISO 8601 repeating interval {@code R[n]/start/duration}: {@code n} occurrences
   * (omitted: unbounded), the first at {@code start}, which needs an offset or {@code Z}, then one
   * every {@code duration}. Example: {@code R5/2026-11-21T09:00:00Z/PT1H}.
   *
   * @throws IllegalArgumentException naming the part that is wrong
   */
  public static Schedule.Repeat repeat(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("repeating interval is empty");
    }
    String trimmed = text.trim();
    Matcher m = REPEATING.matcher(trimmed);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "repeating interval '"
              + text
              + "' is not of the form R[n]/start/duration, e.g. R5/2026-11-21T09:00:00Z/PT1H");
    }
    Integer repetitions = parseRepetitions(text, m.group(1));
    Instant start = parseStart(text, m.group(2));
    Duration period;
    try {
      period = parseIso(m.group(3));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "repeating interval '"
              + text
              + "': the third part must be an ISO 8601 duration such as PT1H or P1D"
              + " (start/end and duration/end forms are not supported): "
              + e.getMessage(),
          e);
    }
    if (period.isZero() || period.isNegative()) {
      throw new IllegalArgumentException(
          "repeating interval '" + text + "': duration " + m.group(3) + " must be positive");
    }
    return new Schedule.Repeat(start, period, repetitions);
  }

  /**
   * A time zone: a region id ({@code Europe/Paris}) or an offset ({@code Z}, {@code +02:00}).
   *
   * @throws IllegalArgumentException naming the unknown zone
   */
  public static ZoneId parseZone(String zone) {
    if (zone == null || zone.isBlank()) {
      throw new IllegalArgumentException("time zone is empty");
    }
    try {
      return ZoneId.of(zone.trim());
    } catch (DateTimeException e) {
      throw new IllegalArgumentException(
          "unknown time zone '" + zone + "' (use a region such as Europe/Paris, or an offset)", e);
    }
  }

  private static Duration parseIso(String text) {
    try {
      return Duration.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is not an ISO 8601 duration of days, hours, minutes and seconds (PT15M, P1DT2H);"
              + " months and years are not fixed lengths",
          e);
    }
  }

  private static Duration parseShort(String text) {
    Matcher part = SHORT_PART.matcher(text.toLowerCase(Locale.ROOT));
    Duration total = Duration.ZERO;
    int previousUnit = -1;
    while (part.find()) {
      int unit = SHORT_UNITS.indexOf(part.group(2));
      if (unit <= previousUnit) {
        throw new IllegalArgumentException(
            "interval '"
                + text
                + "': units must appear once each, largest first (d, h, m, s, ms), as in 1h30m");
      }
      previousUnit = unit;
      long amount = Long.parseLong(part.group(1));
      total = total.plus(shortUnit(part.group(2)).multipliedBy(amount));
    }
    return total;
  }

  private static Duration shortUnit(String unit) {
    switch (unit) {
      case "d":
        return Duration.ofDays(1);
      case "h":
        return Duration.ofHours(1);
      case "m":
        return Duration.ofMinutes(1);
      case "s":
        return Duration.ofSeconds(1);
      default:
        return Duration.ofMillis(1);
    }
  }

  private static Integer parseRepetitions(String text, String digits) {
    if (digits.isEmpty()) {
      return null;
    }
    int repetitions;
    try {
      repetitions = Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "repeating interval '" + text + "': R" + digits + " is too many repetitions", e);
    }
    if (repetitions < 1) {
      throw new IllegalArgumentException(
          "repeating interval '"
              + text
              + "': R"
              + digits
              + " has no occurrences; use R1 or more, or R for unbounded");
    }
    return repetitions;
  }

  private static Instant parseStart(String text, String start) {
    try {
      return OffsetDateTime.parse(start).toInstant();
    } catch (DateTimeParseException notOffset) {
      String problem;
      try {
        LocalDateTime.parse(start);
        problem = " has no offset; add Z or one such as +01:00";
      } catch (DateTimeParseException notLocal) {
        problem = " is not an ISO 8601 date-time such as 2026-11-21T09:00:00Z";
      }
      throw new IllegalArgumentException(
          "repeating interval '" + text + "': start " + start + problem, notOffset);
    }
  }
}
