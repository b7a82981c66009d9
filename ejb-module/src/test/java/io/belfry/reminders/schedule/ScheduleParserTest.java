package io.belfry.reminders.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.api.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ScheduleParserTest {

  private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

  @ParameterizedTest
  @CsvSource({
    "PT15M, 900000",
    "pt15m, 900000",
    "P1DT2H, 93600000",
    "15m, 900000",
    "90s, 90000",
    "1h30m, 5400000",
    "2d, 172800000",
    "500ms, 500",
    "1m30s, 90000",
    "1d2h3m4s5ms, 93784005",
    "1H, 3600000",
    "60000, 60000",
    "' 15m ', 900000",
    "1, 1"
  })
  void parseInterval_validText_returnsDuration(String text, long millis) {
    assertThat(ScheduleParser.parseInterval(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "0s", "PT0S", "-PT1H", "-5", "0ms", "0h0m"})
  void parseInterval_notPositive_rejectedAsNotPositive(String text) {
    assertThatThrownBy(() -> ScheduleParser.parseInterval(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + text + "'")
        .hasMessageContaining("must be positive");
  }

  @ParameterizedTest
  @ValueSource(strings = {"15 minutes", "1.5h", "h", "15x", "PT", "abc"})
  void parseInterval_unknownForm_messageListsAcceptedForms(String text) {
    assertThatThrownBy(() -> ScheduleParser.parseInterval(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + text + "'")
        .hasMessageContaining("ISO 8601");
  }

  @Test
  void parseInterval_unitsOutOfOrder_messageSaysLargestFirst() {
    assertThatThrownBy(() -> ScheduleParser.parseInterval("30m1h"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "interval '30m1h': units must appear once each, largest first (d, h, m, s, ms), as in"
                + " 1h30m");
    assertThatThrownBy(() -> ScheduleParser.parseInterval("1m1m"))
        .hasMessageContaining("largest first");
  }

  @Test
  void parseInterval_monthsInIso_messageExplainsFixedLengths() {
    assertThatThrownBy(() -> ScheduleParser.parseInterval("P1M"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("months and years are not fixed lengths");
  }

  @ParameterizedTest
  @ValueSource(strings = {"99999999999999999999", "99999999999999999d", "9223372036854775807d"})
  void parseInterval_overflowing_rejectedAsTooLarge(String text) {
    assertThatThrownBy(() -> ScheduleParser.parseInterval(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("interval '" + text + "' is too large");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "   "})
  void parseInterval_empty_rejected(String text) {
    assertThatThrownBy(() -> ScheduleParser.parseInterval(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("interval is empty");
    assertThatThrownBy(() -> ScheduleParser.parseInterval(null)).hasMessage("interval is empty");
  }

  @Test
  void every_shortForm_buildsEvery() {
    assertThat(ScheduleParser.every("15m")).isEqualTo(new Schedule.Every(Duration.ofMinutes(15)));
  }

  @Test
  void cron_validExpression_buildsCronWithZone() {
    assertThat(ScheduleParser.cron(" 0 9 * * 1-5 ", "Europe/Paris"))
        .isEqualTo(new Schedule.Cron("0 9 * * 1-5", PARIS));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "61 * * * *  | Value 61 not in range [0, 59]",
        "0 25 * * *  | Value 25 not in range [0, 23]",
        "* * *       | contains 3 parts but we expect one of [5]",
        "0 0 1 1 * 2020 | contains 6 parts but we expect one of [5]",
        "0 9 ? * *   | Invalid expression: ?",
        "0 9 * * 8   | Value 8 not in range [0, 7]"
      })
  void cron_invalidExpression_messageNamesWrongPart(String expression, String part) {
    assertThatThrownBy(() -> ScheduleParser.cron(expression, PARIS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("invalid cron expression '" + expression + "'")
        .hasMessageContaining("minute hour day-of-month month day-of-week")
        .hasMessageContaining(part);
  }

  @Test
  void cron_neverMatches_rejected() {
    assertThatThrownBy(() -> ScheduleParser.cron("0 9 31 2 *", PARIS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cron expression '0 9 31 2 *' never matches a date (e.g. 30 February)");
  }

  @Test
  void cron_leapDayOnly_accepted() {
    assertThat(ScheduleParser.cron("0 9 29 2 *", PARIS).expression()).isEqualTo("0 9 29 2 *");
  }

  @Test
  void cron_emptyOrWithoutZone_rejected() {
    assertThatThrownBy(() -> ScheduleParser.cron(" ", PARIS))
        .hasMessage("cron expression is empty");
    assertThatThrownBy(() -> ScheduleParser.cron("0 9 * * *", (ZoneId) null))
        .hasMessage("cron expression '0 9 * * *' needs a time zone");
  }

  @Test
  void cron_unknownZone_messageNamesZone() {
    assertThatThrownBy(() -> ScheduleParser.cron("0 9 * * *", "Europe/Pari"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("unknown time zone 'Europe/Pari'");
  }

  @Test
  void repeat_bounded_buildsRepeat() {
    assertThat(ScheduleParser.repeat("R5/2026-11-21T09:00:00Z/PT1H"))
        .isEqualTo(
            new Schedule.Repeat(Instant.parse("2026-11-21T09:00:00Z"), Duration.ofHours(1), 5));
  }

  @Test
  void repeat_unbounded_hasNullRepetitions() {
    assertThat(ScheduleParser.repeat("R/2026-11-21T10:00:00+01:00/P1D"))
        .isEqualTo(
            new Schedule.Repeat(Instant.parse("2026-11-21T09:00:00Z"), Duration.ofDays(1), null));
  }

  @Test
  void repeat_zeroRepetitions_rejected() {
    assertThatThrownBy(() -> ScheduleParser.repeat("R0/2026-11-21T09:00:00Z/PT1H"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "repeating interval 'R0/2026-11-21T09:00:00Z/PT1H': R0 has no occurrences; use R1 or"
                + " more, or R for unbounded");
  }

  @Test
  void repeat_startWithoutOffset_messageAsksForOffset() {
    assertThatThrownBy(() -> ScheduleParser.repeat("R5/2026-11-21T09:00:00/PT1H"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "repeating interval 'R5/2026-11-21T09:00:00/PT1H': start 2026-11-21T09:00:00 has no"
                + " offset; add Z or one such as +01:00");
  }

  @Test
  void repeat_startNotADate_messageNamesStart() {
    assertThatThrownBy(() -> ScheduleParser.repeat("R5/tomorrow/PT1H"))
        .hasMessage(
            "repeating interval 'R5/tomorrow/PT1H': start tomorrow is not an ISO 8601 date-time"
                + " such as 2026-11-21T09:00:00Z");
  }

  @Test
  void repeat_badDuration_messageNamesThirdPart() {
    assertThatThrownBy(() -> ScheduleParser.repeat("R5/2026-11-21T09:00:00Z/2026-11-22T09:00:00Z"))
        .hasMessageContaining("the third part must be an ISO 8601 duration");
    assertThatThrownBy(() -> ScheduleParser.repeat("R5/2026-11-21T09:00:00Z/PT0S"))
        .hasMessageContaining("duration PT0S must be positive");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "5/2026-11-21T09:00:00Z/PT1H",
        "R5/2026-11-21T09:00:00Z",
        "R-1/2026-11-21T09:00:00Z/PT1H",
        "Rx/a/b/c"
      })
  void repeat_notRepeatingForm_messageShowsForm(String text) {
    assertThatThrownBy(() -> ScheduleParser.repeat(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not of the form R[n]/start/duration");
  }

  @Test
  void repeat_tooManyRepetitions_rejected() {
    assertThatThrownBy(() -> ScheduleParser.repeat("R99999999999/2026-11-21T09:00:00Z/PT1H"))
        .hasMessageContaining("R99999999999 is too many repetitions");
  }

  @Test
  void scheduleRecords_invalidComponents_rejectedAtConstruction() {
    assertThatThrownBy(() -> new Schedule.Every(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("interval must be positive, was PT0S");
    assertThatThrownBy(() -> new Schedule.Repeat(Instant.EPOCH, Duration.ofHours(1), 0))
        .hasMessage("repeating interval must have at least 1 repetition, was 0");
  }
}
