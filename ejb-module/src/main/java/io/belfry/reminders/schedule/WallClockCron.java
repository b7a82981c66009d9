package io.belfry.reminders.schedule;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.util.Optional;

/**
 * A Unix cron expression read on the wall clock of a time zone: the instants at which it fires.
 *
 * <p>The idea: cron-utils matches the expression against local date-times expressed in UTC, where
 * no offset ever changes, so every matching wall-clock time is found exactly once and in order. The
 * zone's rules then map each wall-clock time to an instant the way {@code java.time} does ({@link
 * ZonedDateTime#ofLocal} without a preferred offset):
 *
 * <ul>
 *   <li>a wall-clock time inside a spring-forward gap (02:30 in Paris on the last Sunday of March)
 *       fires where it would have been had the clock not jumped: later by the length of the gap
 *       (03:30 CEST). A daily job still fires that day;
 *   <li>a wall-clock time inside a fall-back overlap (02:30 on the last Sunday of October) fires
 *       once, at the earlier offset (02:30 CEST). The repeated hour does not fire again.
 * </ul>
 *
 * So "every day at 02:30" means exactly one fire per calendar day, all year; wall-clock times that
 * a gap maps onto the same instant fire once, because stepping is strictly after the last instant.
 * The price is that a sub-hourly expression ({@code *}{@code /15 * * * *}) is silent during the
 * repeated hour of a fall-back; fixed intervals belong in {@code Schedule.Every}, which counts real
 * elapsed time.
 *
 * <p>cron-utils' own zone handling is not used: in 9.2.1 it drops gap times and fires some overlap
 * times twice depending on where the search starts.
 */
final class WallClockCron {

  private static final CronParser UNIX = // thread-safe once built
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  /**
   * Matches probed when the first one maps to an instant not after the search start; that happens
   * only inside a fall-back overlap, which holds at most one hour of minute matches (60), or a few
   * more where a zone has stepped back further. 1 440 is a full day of minutes.
   */
  private static final int MAX_OVERLAP_PROBES = 1_440;

  /**
   * A reference from which validation looks for at least one match; a 400-year search from here
   * covers every Gregorian calendar pattern, leap days included.
   */
  private static final ZonedDateTime VALIDATION_REFERENCE =
      ZonedDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

  private final ExecutionTime localMatches;
  private final ZoneId zone;

  private WallClockCron(ExecutionTime localMatches, ZoneId zone) {
    this.localMatches = localMatches;
    this.zone = zone;
  }

  /**
   * Parses a Unix 5-field cron expression.
   *
   * @throws IllegalArgumentException naming the expression and, as cron-utils reports it, the part
   *     that is wrong; or saying that the expression can never match (30 February)
   */
  static WallClockCron parse(String expression, ZoneId zone) {
    if (expression == null || expression.isBlank()) {
      throw new IllegalArgumentException("cron expression is empty");
    }
    if (zone == null) {
      throw new IllegalArgumentException("cron expression '" + expression + "' needs a time zone");
    }
    Cron cron;
    try {
      cron = UNIX.parse(expression.trim()).validate();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "invalid cron expression '"
              + expression
              + "' (Unix format: minute hour day-of-month month day-of-week): "
              + e.getMessage(),
          e);
    }
    ExecutionTime executionTime = ExecutionTime.forCron(cron);
    if (executionTime.nextExecution(VALIDATION_REFERENCE).isEmpty()) {
      throw new IllegalArgumentException(
          "cron expression '" + expression + "' never matches a date (e.g. 30 February)");
    }
    return new WallClockCron(executionTime, zone);
  }

  ZoneId zone() {
    return zone;
  }

  /** The first instant strictly after {@code after} whose wall-clock time matches, if any. */
  Optional<Instant> nextAfter(Instant after) {
    ZonedDateTime cursor;
    try {
      // The wall-clock reading of `after`; inside an overlap both instants read the same, and the
      // strictly-after check below skips matches that resolve to the earlier one.
      LocalDateTime from = LocalDateTime.ofInstant(after, zone);
      ZoneOffsetTransition last = zone.getRules().previousTransition(after.plusNanos(1));
      if (last != null
          && last.isGap()
          && after.isBefore(last.getInstant().plus(last.getDuration()))) {
        // Less than a gap's length after a spring-forward, `after` reads later than the gap's
        // wall-clock times, yet they fire later still, shifted by the gap (03:10 CEST reads after
        // 02:30, which fires at 03:30 CEST): search from the gap's start
        from = last.getDateTimeBefore().minusSeconds(1);
      }
      cursor = from.atZone(ZoneOffset.UTC);
    } catch (DateTimeException beyondLocalDateTimeRange) {
      return Optional.empty();
    }
    for (int probe = 0; probe < MAX_OVERLAP_PROBES; probe++) {
      Optional<ZonedDateTime> match = localMatches.nextExecution(cursor);
      if (match.isEmpty()) {
        return Optional.empty();
      }
      Instant candidate;
      try {
        candidate = ZonedDateTime.ofLocal(match.get().toLocalDateTime(), zone, null).toInstant();
      } catch (DateTimeException beyondInstantRange) {
        return Optional.empty();
      }
      if (candidate.isAfter(after)) {
        return Optional.of(candidate);
      }
      cursor = match.get();
    }
    throw new IllegalStateException(
        "no cron match after " + after + " within " + MAX_OVERLAP_PROBES + " probes in " + zone);
  }
}
