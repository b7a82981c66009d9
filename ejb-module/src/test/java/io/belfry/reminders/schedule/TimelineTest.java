package io.belfry.reminders.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.api.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TimelineTest {

  private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
  private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
  private static final Instant NOW = Instant.parse("2026-11-21T08:00:00Z");

  private static Instant at(String instant) {
    return Instant.parse(instant);
  }

  private static Timeline cron(String expression, ZoneId zone) {
    return Timeline.of(new Schedule.Cron(expression, zone), Bounds.NONE);
  }

  /** The first {@code count} positions from {@code first}, as instants. */
  private static List<Instant> positions(Timeline timeline, Occurrence first, int count) {
    List<Instant> out = new ArrayList<>();
    Optional<Occurrence> cursor = Optional.of(first);
    while (cursor.isPresent() && out.size() < count) {
      out.add(cursor.get().due());
      cursor = timeline.next(cursor.get());
    }
    return out;
  }

  private static List<Instant> cronPositions(Timeline timeline, Instant after, int count) {
    Occurrence first = timeline.first(null, after).orElseThrow();
    return positions(timeline, first, count);
  }

  // --- first ---------------------------------------------------------------------------------

  @Test
  void first_onceWithRequested_isRequested() {
    Timeline once = Timeline.of(new Schedule.Once(), Bounds.NONE);
    assertThat(once.first(at("2026-12-01T00:00:00Z"), NOW))
        .contains(new Occurrence(at("2026-12-01T00:00:00Z"), 1));
  }

  @Test
  void first_onceWithoutRequested_rejected() {
    Timeline once = Timeline.of(new Schedule.Once(), Bounds.NONE);
    assertThatThrownBy(() -> once.first(null, NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a one-shot reminder needs a first fire time");
  }

  @Test
  void first_everyWithoutRequested_isNowPlusInterval() {
    Timeline every = Timeline.of(new Schedule.Every(Duration.ofMinutes(15)), Bounds.NONE);
    assertThat(every.first(null, NOW)).contains(new Occurrence(NOW.plusSeconds(900), 1));
    assertThat(every.first(NOW.minusSeconds(5), NOW))
        .contains(new Occurrence(NOW.minusSeconds(5), 1));
  }

  @Test
  void first_cronWithoutRequested_isFirstMatchStrictlyAfterNow() {
    Timeline daily = cron("0 9 * * *", ZoneId.of("UTC"));
    assertThat(daily.first(null, at("2026-11-21T09:00:00Z")))
        .contains(new Occurrence(at("2026-11-22T09:00:00Z"), 1));
    assertThat(daily.first(null, at("2026-11-21T08:59:59.999Z")))
        .contains(new Occurrence(at("2026-11-21T09:00:00Z"), 1));
  }

  @Test
  void first_cronWithRequested_isRequestedEvenOffPattern() {
    Timeline daily = cron("0 9 * * *", ZoneId.of("UTC"));
    Occurrence first = daily.first(at("2026-11-21T12:34:00Z"), NOW).orElseThrow();
    assertThat(first.due()).isEqualTo(at("2026-11-21T12:34:00Z"));
    assertThat(daily.next(first)).contains(new Occurrence(at("2026-11-22T09:00:00Z"), 2));
  }

  @Test
  void first_repeat_isStartWhateverRequested() {
    Timeline r = Timeline.of(ScheduleParser.repeat("R5/2026-11-21T09:00:00Z/PT1H"), Bounds.NONE);
    assertThat(r.first(at("2030-01-01T00:00:00Z"), NOW))
        .contains(new Occurrence(at("2026-11-21T09:00:00Z"), 1));
  }

  @Test
  void first_afterUntil_empty() {
    Timeline once =
        Timeline.of(new Schedule.Once(), Bounds.NONE.withUntil(at("2026-11-30T00:00:00Z")));
    assertThat(once.first(at("2026-12-01T00:00:00Z"), NOW)).isEmpty();
    assertThat(once.first(at("2026-11-30T00:00:00Z"), NOW)).isPresent();
  }

  // --- next ----------------------------------------------------------------------------------

  @Test
  void next_once_none() {
    Timeline once = Timeline.of(new Schedule.Once(), Bounds.NONE);
    assertThat(once.next(new Occurrence(NOW, 1))).isEmpty();
  }

  @Test
  void next_every_isScheduledPlusInterval() {
    Timeline every = Timeline.of(new Schedule.Every(Duration.ofMinutes(15)), Bounds.NONE);
    assertThat(every.next(new Occurrence(NOW, 3)))
        .contains(new Occurrence(NOW.plus(Duration.ofMinutes(15)), 4));
  }

  @Test
  void next_repeatBounded_endsAfterRepetitions() {
    Timeline r = Timeline.of(ScheduleParser.repeat("R5/2026-11-21T09:00:00Z/PT1H"), Bounds.NONE);
    Occurrence first = r.first(null, NOW).orElseThrow();
    assertThat(positions(r, first, 100))
        .containsExactly(
            at("2026-11-21T09:00:00Z"),
            at("2026-11-21T10:00:00Z"),
            at("2026-11-21T11:00:00Z"),
            at("2026-11-21T12:00:00Z"),
            at("2026-11-21T13:00:00Z"));
  }

  @Test
  void next_repeatUnbounded_continues() {
    Timeline r = Timeline.of(ScheduleParser.repeat("R/2026-11-21T09:00:00Z/PT1H"), Bounds.NONE);
    assertThat(r.next(new Occurrence(at("2026-11-21T09:00:00Z"), 1_000_000)))
        .contains(new Occurrence(at("2026-11-21T10:00:00Z"), 1_000_001));
  }

  @Test
  void next_repeatWithMaxOccurrences_smallerLimitWins() {
    Timeline r =
        Timeline.of(
            ScheduleParser.repeat("R5/2026-11-21T09:00:00Z/PT1H"),
            Bounds.NONE.withMaxOccurrences(2L));
    assertThat(positions(r, r.first(null, NOW).orElseThrow(), 100)).hasSize(2);
  }

  @Test
  void next_untilReached_occurrenceAtUntilHappensAfterDoesNot() {
    Timeline every =
        Timeline.of(
            new Schedule.Every(Duration.ofHours(1)),
            Bounds.NONE.withUntil(at("2026-11-21T11:00:00Z")));
    Occurrence first = every.first(at("2026-11-21T09:00:00Z"), NOW).orElseThrow();
    assertThat(positions(every, first, 100))
        .containsExactly(
            at("2026-11-21T09:00:00Z"), at("2026-11-21T10:00:00Z"), at("2026-11-21T11:00:00Z"));
  }

  @Test
  void next_maxOccurrences_countsFirstPosition() {
    Timeline every =
        Timeline.of(new Schedule.Every(Duration.ofHours(1)), Bounds.NONE.withMaxOccurrences(3L));
    Occurrence first = every.first(NOW, NOW).orElseThrow();
    assertThat(positions(every, first, 100)).hasSize(3);
    assertThat(every.next(new Occurrence(NOW, 3))).isEmpty();
  }

  @Test
  void next_nearInstantMax_endsInsteadOfOverflowing() {
    Timeline every = Timeline.of(new Schedule.Every(Duration.ofDays(1)), Bounds.NONE);
    assertThat(every.next(new Occurrence(Instant.MAX.minusSeconds(10), 1))).isEmpty();
    assertThat(every.firstAfter(new Occurrence(Instant.MIN, 1), Instant.MAX.minusSeconds(10)))
        .isEmpty();
    Timeline daily = cron("0 9 * * *", PARIS);
    assertThat(daily.next(new Occurrence(Instant.MAX, 1))).isEmpty();
    assertThat(daily.next(new Occurrence(Instant.MIN, 1))).isEmpty();
  }

  @Test
  void next_acrossEpochZero_isExact() {
    Timeline every = Timeline.of(new Schedule.Every(Duration.ofMillis(300)), Bounds.NONE);
    Occurrence beforeEpoch = new Occurrence(Instant.EPOCH.minusMillis(200), 1);
    assertThat(every.next(beforeEpoch)).contains(new Occurrence(Instant.EPOCH.plusMillis(100), 2));
    assertThat(every.firstAfter(beforeEpoch, Instant.EPOCH.plusMillis(100)))
        .contains(new Occurrence(Instant.EPOCH.plusMillis(400), 3));
  }

  // --- cron and the calendar -----------------------------------------------------------------

  @Test
  void next_cronLeapDay_onlyInLeapYears() {
    Timeline leap = cron("0 9 29 2 *", ZoneId.of("UTC"));
    assertThat(cronPositions(leap, at("2025-01-01T00:00:00Z"), 3))
        .containsExactly(
            at("2028-02-29T09:00:00Z"), at("2032-02-29T09:00:00Z"), at("2036-02-29T09:00:00Z"));
  }

  @Test
  void next_cronLeapDayCenturyRule_skips2100() {
    Timeline leap = cron("0 9 29 2 *", ZoneId.of("UTC"));
    assertThat(leap.next(new Occurrence(at("2096-02-29T09:00:00Z"), 1)))
        .contains(new Occurrence(at("2104-02-29T09:00:00Z"), 2));
  }

  @Test
  void next_cronParisSpringForward_gapTimeShiftsByGapOnce() {
    // 2026-03-29: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist that day
    Timeline daily = cron("30 2 * * *", PARIS);
    assertThat(cronPositions(daily, at("2026-03-27T12:00:00Z"), 3))
        .extracting(i -> ZonedDateTime.ofInstant(i, PARIS).toString())
        .containsExactly(
            "2026-03-28T02:30+01:00[Europe/Paris]",
            "2026-03-29T03:30+02:00[Europe/Paris]",
            "2026-03-30T02:30+02:00[Europe/Paris]");
  }

  @Test
  void next_cronParisSpringForward_fromJustAfterTheJump_gapTimeStillFiresThatDay() {
    // set at 03:10 CEST, which reads later than 02:30: the day's 02:30 is 03:30 CEST, still ahead
    Timeline daily = cron("30 2 * * *", PARIS);
    assertThat(daily.next(new Occurrence(at("2026-03-29T01:10:00Z"), 1)).orElseThrow().due())
        .isEqualTo(at("2026-03-29T01:30:00Z"));
    // at 03:30 CEST itself, and after it: the next day
    assertThat(daily.next(new Occurrence(at("2026-03-29T01:30:00Z"), 1)).orElseThrow().due())
        .isEqualTo(at("2026-03-30T00:30:00Z"));
    assertThat(daily.next(new Occurrence(at("2026-03-29T01:45:00Z"), 1)).orElseThrow().due())
        .isEqualTo(at("2026-03-30T00:30:00Z"));
  }

  @Test
  void next_cronParisSpringForwardHalfHourly_noDuplicatesAcrossGap() {
    Timeline halfHourly = cron("*/30 * * * *", PARIS);
    assertThat(cronPositions(halfHourly, at("2026-03-29T00:00:00Z"), 5))
        .containsExactly(
            at("2026-03-29T00:30:00Z"), // 01:30 CET
            at("2026-03-29T01:00:00Z"), // 03:00 CEST (02:00 shifted onto it too)
            at("2026-03-29T01:30:00Z"), // 03:30 CEST
            at("2026-03-29T02:00:00Z"),
            at("2026-03-29T02:30:00Z"));
  }

  @Test
  void next_cronParisFallBack_duplicateWallClockFiresOnce() {
    // 2026-10-25: 03:00 CEST falls back to 02:00 CET; 02:30 happens twice
    Timeline daily = cron("30 2 * * *", PARIS);
    assertThat(cronPositions(daily, at("2026-10-23T12:00:00Z"), 3))
        .extracting(i -> ZonedDateTime.ofInstant(i, PARIS).toString())
        .containsExactly(
            "2026-10-24T02:30+02:00[Europe/Paris]",
            "2026-10-25T02:30+02:00[Europe/Paris]",
            "2026-10-26T02:30+01:00[Europe/Paris]");
  }

  @Test
  void next_cronParisFallBack_fromInsideRepeatedHourDoesNotRepeat() {
    Timeline daily = cron("30 2 * * *", PARIS);
    // 02:45 CEST and 02:10 CET (the repeated hour): the next 02:30 is the following day
    assertThat(daily.next(new Occurrence(at("2026-10-25T00:45:00Z"), 1)).orElseThrow().due())
        .isEqualTo(at("2026-10-26T01:30:00Z"));
    assertThat(daily.next(new Occurrence(at("2026-10-25T01:10:00Z"), 1)).orElseThrow().due())
        .isEqualTo(at("2026-10-26T01:30:00Z"));
  }

  @Test
  void next_cronNewYorkSpringForward_gapTimeShifted() {
    // 2026-03-08: 02:00 EST jumps to 03:00 EDT
    Timeline daily = cron("30 2 * * *", NEW_YORK);
    assertThat(cronPositions(daily, at("2026-03-07T12:00:00Z"), 2))
        .extracting(i -> ZonedDateTime.ofInstant(i, NEW_YORK).toString())
        .containsExactly(
            "2026-03-08T03:30-04:00[America/New_York]", "2026-03-09T02:30-04:00[America/New_York]");
  }

  @Test
  void next_cronNewYorkFallBack_hourlyIsSilentInRepeatedHourAndNeverBackwards() {
    // 2026-11-01: 02:00 EDT falls back to 01:00 EST
    Timeline hourly = cron("0 * * * *", NEW_YORK);
    List<Instant> fires = cronPositions(hourly, at("2026-11-01T04:30:00Z"), 4);
    assertThat(fires)
        .containsExactly(
            at("2026-11-01T05:00:00Z"), // 01:00 EDT
            at("2026-11-01T07:00:00Z"), // 02:00 EST; 01:00 EST is the repeated wall-clock hour
            at("2026-11-01T08:00:00Z"),
            at("2026-11-01T09:00:00Z"));
    assertThat(fires).isSorted();
  }

  @Test
  void next_cronNineOnWeekdays_skipsWeekend() {
    Timeline weekdays = cron("0 9 * * 1-5", PARIS);
    // Friday 2026-11-20 09:00 CET → Monday 2026-11-23 09:00 CET
    assertThat(weekdays.next(new Occurrence(at("2026-11-20T08:00:00Z"), 1)).orElseThrow().due())
        .isEqualTo(at("2026-11-23T08:00:00Z"));
  }

  // --- firstAfter / advance ------------------------------------------------------------------

  @Test
  void advance_everyFarBehind_isArithmetic() {
    Timeline every = Timeline.of(new Schedule.Every(Duration.ofMillis(100)), Bounds.NONE);
    Occurrence scheduled = new Occurrence(NOW, 1);
    Instant threeDaysLater = NOW.plus(Duration.ofDays(3));
    Timeline.Advance advance = every.advance(scheduled, threeDaysLater);
    long steps = Duration.ofDays(3).toMillis() / 100; // positions 2 … 2 592 001, the last at now
    assertThat(advance.passed()).isEqualTo(steps);
    assertThat(advance.next())
        .contains(new Occurrence(threeDaysLater.plusMillis(100), 1 + steps + 1));
  }

  @Test
  void advance_instantNotAfterScheduled_isNext() {
    Timeline every = Timeline.of(new Schedule.Every(Duration.ofMinutes(1)), Bounds.NONE);
    Timeline.Advance advance = every.advance(new Occurrence(NOW, 1), NOW);
    assertThat(advance)
        .isEqualTo(new Timeline.Advance(0, Optional.of(new Occurrence(NOW.plusSeconds(60), 2))));
  }

  @Test
  void advance_repeatEndsBeforeInstant_countsOnlyExistingPositions() {
    Timeline r = Timeline.of(ScheduleParser.repeat("R5/2026-11-21T09:00:00Z/PT1H"), Bounds.NONE);
    Timeline.Advance advance =
        r.advance(new Occurrence(at("2026-11-21T09:00:00Z"), 1), at("2026-11-30T00:00:00Z"));
    assertThat(advance).isEqualTo(new Timeline.Advance(4, Optional.empty()));
  }

  @Test
  void advance_untilBeforeInstant_countsPositionsUpToUntil() {
    Timeline every =
        Timeline.of(
            new Schedule.Every(Duration.ofHours(1)),
            Bounds.NONE.withUntil(at("2026-11-21T12:30:00Z")));
    Timeline.Advance advance =
        every.advance(new Occurrence(at("2026-11-21T09:00:00Z"), 1), at("2026-11-22T00:00:00Z"));
    assertThat(advance).isEqualTo(new Timeline.Advance(3, Optional.empty())); // 10, 11, 12
  }

  @Test
  void advance_cronBehind_walksAndCounts() {
    Timeline hourly = cron("0 * * * *", ZoneId.of("UTC"));
    Timeline.Advance advance =
        hourly.advance(new Occurrence(at("2026-11-21T09:00:00Z"), 7), at("2026-11-21T12:00:00Z"));
    // 10, 11, 12 passed; 13:00 is the first strictly after 12:00
    assertThat(advance)
        .isEqualTo(
            new Timeline.Advance(3, Optional.of(new Occurrence(at("2026-11-21T13:00:00Z"), 11))));
  }

  @Test
  void advance_cronBeyondBudget_jumpsToFirstMatchAfterInstant() {
    Timeline everyMinute = cron("* * * * *", ZoneId.of("UTC"));
    Instant from = at("2026-01-01T00:00:00Z");
    Instant farLater = from.plus(Duration.ofDays(365));
    Timeline.Advance advance = everyMinute.advance(new Occurrence(from, 1), farLater);
    assertThat(advance.passed()).isEqualTo(Timeline.MAX_CRON_SKIP_STEPS);
    assertThat(advance.next())
        .contains(new Occurrence(farLater.plusSeconds(60), 1 + Timeline.MAX_CRON_SKIP_STEPS + 1));
  }

  @Test
  void of_invalidCron_rejected() {
    assertThatThrownBy(() -> cron("0 9 31 2 *", PARIS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("never matches");
  }
}
