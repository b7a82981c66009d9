package io.belfry.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ReminderQuery;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.ReminderStatus;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.fire.EngineSettings;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Each schedule kind, its bounds and its misfire policy, on virtual time. */
@ExtendWith(BelfryExtension.class)
class ScheduleKindsTest {

  private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

  @Test
  void once_firesAtItsDueTime_notBefore(VirtualBelfry belfry) {
    Instant due = belfry.now().plus(Duration.ofMinutes(30));
    belfry.reminders().set(ReminderRequest.key("k").at(due).payloadText("hello").build());

    assertThat(belfry.advanceBy(Duration.ofMinutes(29))).isZero();
    assertThat(belfry.fires().all()).isEmpty();
    assertThat(belfry.advanceBy(Duration.ofMinutes(2))).isEqualTo(1);

    ReminderFired fire = belfry.fires().single("k");
    assertThat(fire.getDueAt()).isEqualTo(due);
    assertThat(fire.getFiredAt()).isEqualTo(due);
    assertThat(fire.payloadAsString()).isEqualTo("hello");
    assertThat(belfry.reminders().get("k")).isEmpty();
  }

  @Test
  void setReturnsTheFenceItsFireCarries(VirtualBelfry belfry) {
    long version =
        belfry.reminders().setAfter("k", Duration.ofSeconds(5), new byte[] {1}).version();

    belfry.advanceBy(Duration.ofSeconds(5));

    assertThat(belfry.fires().single("k").getFence()).isEqualTo(version);
  }

  @Test
  void replace_onlyTheLastVersionFires_cancel_nothingFires(VirtualBelfry belfry) {
    Reminders reminders = belfry.reminders();
    reminders.set(ReminderRequest.key("replaced").after(Duration.ofMinutes(10)).build());
    belfry.advanceBy(Duration.ofMinutes(5));
    long last =
        reminders
            .set(ReminderRequest.key("replaced").after(Duration.ofMinutes(10)).build())
            .version();
    reminders.set(ReminderRequest.key("cancelled").after(Duration.ofMinutes(10)).build());
    reminders.cancel("cancelled");

    belfry.advanceBy(Duration.ofHours(1));

    ReminderFired fire = belfry.fires().single("replaced");
    assertThat(fire.getFence()).isEqualTo(last);
    assertThat(fire.getDueAt()).isEqualTo(VirtualBelfry.DEFAULT_START.plusSeconds(15 * 60));
    belfry.fires().assertNotFired("cancelled");
  }

  @Test
  void every_withMaxOccurrences_firesThatManyTimes_intervalApart(VirtualBelfry belfry) {
    Instant start = belfry.now().plusSeconds(60);
    belfry
        .reminders()
        .set(ReminderRequest.key("poll").at(start).every("15m").maxOccurrences(4).build());

    belfry.advanceBy(Duration.ofDays(1));

    assertThat(belfry.fires().dueTimes("poll"))
        .containsExactly(
            start, start.plusSeconds(900), start.plusSeconds(1800), start.plusSeconds(2700));
    assertThat(belfry.fires().of("poll"))
        .extracting(ReminderFired::getOccurrence)
        .containsExactly(1L, 2L, 3L, 4L);
    belfry.fires().assertNoneEarly();
  }

  @Test
  void every_withUntil_anOccurrenceAtUntilStillFires(VirtualBelfry belfry) {
    Instant start = belfry.now().plusSeconds(10);
    belfry
        .reminders()
        .set(
            ReminderRequest.key("trial")
                .at(start)
                .every("1d")
                .until(start.plus(Duration.ofDays(3)))
                .build());

    belfry.advanceBy(Duration.ofDays(30));

    assertThat(belfry.fires().count("trial")).isEqualTo(4);
    assertThat(belfry.fires().dueTimes("trial").get(3)).isEqualTo(start.plus(Duration.ofDays(3)));
  }

  @Test
  void repeat_firesItsCount_fromItsStart(VirtualBelfry belfry) {
    belfry
        .reminders()
        .set(ReminderRequest.key("standup").repeat("R5/2026-01-05T10:00:00Z/PT1H").build());

    belfry.advanceBy(Duration.ofDays(2));

    Instant start = Instant.parse("2026-01-05T10:00:00Z");
    assertThat(belfry.fires().dueTimes("standup"))
        .containsExactly(
            start,
            start.plusSeconds(3600),
            start.plusSeconds(7200),
            start.plusSeconds(10800),
            start.plusSeconds(14400));
  }

  @Test
  void cron_inParis_keepsItsWallClockTimeAcrossBothDaylightSavingChanges() {
    // Sunday 29 March 2026: 02:00 CET becomes 03:00 CEST; Sunday 25 October 2026: back again
    try (VirtualBelfry belfry =
        VirtualBelfry.builder().startingAt(Instant.parse("2026-03-27T00:00:00Z")).start()) {
      belfry
          .reminders()
          .set(ReminderRequest.key("digest").cron("0 9 * * *", PARIS).maxOccurrences(4).build());
      belfry.advanceTo(Instant.parse("2026-04-01T00:00:00Z"));

      assertThat(belfry.fires().of("digest"))
          .extracting(f -> LocalDateTime.ofInstant(f.getDueAt(), PARIS).toLocalTime().toString())
          .containsExactly("09:00", "09:00", "09:00", "09:00");
      assertThat(belfry.fires().dueTimes("digest"))
          .containsExactly(
              Instant.parse("2026-03-27T08:00:00Z"),
              Instant.parse("2026-03-28T08:00:00Z"),
              Instant.parse("2026-03-29T07:00:00Z"),
              Instant.parse("2026-03-30T07:00:00Z"));
    }
  }

  @Test
  void cron_timeInTheSpringGap_firesLaterByTheGap_timeInTheFallOverlap_firesOnce() {
    try (VirtualBelfry belfry =
        VirtualBelfry.builder().startingAt(Instant.parse("2026-03-28T12:00:00Z")).start()) {
      belfry.reminders().set(ReminderRequest.key("nightly").cron("30 2 * * *", PARIS).build());
      belfry.advanceTo(Instant.parse("2026-03-30T12:00:00Z"));
      // 02:30 does not exist on 29 March: 03:30 CEST, 01:30 UTC
      assertThat(belfry.fires().dueTimes("nightly"))
          .containsExactly(
              Instant.parse("2026-03-29T01:30:00Z"), Instant.parse("2026-03-30T00:30:00Z"));

      belfry.fires().clear();
      belfry.advanceTo(Instant.parse("2026-10-26T12:00:00Z"));
      // 02:30 happens twice on 25 October: fired once, at the earlier offset (CEST, 00:30 UTC)
      assertThat(belfry.fires().dueTimes("nightly"))
          .filteredOn(due -> due.isAfter(Instant.parse("2026-10-24T12:00:00Z")))
          .containsExactly(
              Instant.parse("2026-10-25T00:30:00Z"), Instant.parse("2026-10-26T01:30:00Z"));
      belfry.fires().assertNoneEarly();
    }
  }

  @Test
  void downtime_fireOnce_firesTheOverdueOccurrenceOnce_thenContinuesOnTime(VirtualBelfry belfry) {
    Instant start = belfry.now().plusSeconds(60);
    belfry.reminders().set(ReminderRequest.key("poll").at(start).every("10m").build());

    belfry.restartAfter(Duration.ofMinutes(35)); // 60 s, 10 m 60 s, 20 m 60 s, 30 m 60 s passed
    belfry.advanceTo(start.plus(Duration.ofMinutes(50)));

    List<ReminderFired> fires = belfry.fires().of("poll");
    assertThat(fires).extracting(ReminderFired::getOccurrence).containsExactly(1L, 5L, 6L);
    assertThat(fires.get(0).getFiredAt()).isEqualTo(VirtualBelfry.DEFAULT_START.plusSeconds(2100));
    assertThat(fires.get(1).getDueAt()).isEqualTo(start.plus(Duration.ofMinutes(40)));
  }

  @Test
  void downtime_fireAll_firesEveryMissedOccurrence(VirtualBelfry belfry) {
    Instant start = belfry.now().plusSeconds(60);
    belfry
        .reminders()
        .set(
            ReminderRequest.key("report")
                .at(start)
                .every("10m")
                .misfire(MisfirePolicy.FIRE_ALL)
                .build());

    belfry.restartAfter(Duration.ofMinutes(35));

    assertThat(belfry.fires().dueTimes("report"))
        .containsExactly(
            start,
            start.plus(Duration.ofMinutes(10)),
            start.plus(Duration.ofMinutes(20)),
            start.plus(Duration.ofMinutes(30)));
    assertThat(belfry.fires().of("report"))
        .allSatisfy(f -> assertThat(f.getFiredAt()).isEqualTo(belfry.now()));
  }

  @Test
  void downtime_skip_dropsOccurrencesLaterThanTheDeadline(VirtualBelfry belfry) {
    Reminders reminders = belfry.reminders();
    reminders.set(
        ReminderRequest.key("alarm")
            .after(Duration.ofMinutes(1))
            .skipIfLaterThan(Duration.ofMinutes(5))
            .build());
    reminders.set(
        ReminderRequest.key("tolerant")
            .after(Duration.ofMinutes(1))
            .skipIfLaterThan(Duration.ofHours(1))
            .build());

    belfry.restartAfter(Duration.ofMinutes(30));

    belfry.fires().assertNotFired("alarm");
    assertThat(belfry.fires().single("tolerant").latency()).isEqualTo(Duration.ofMinutes(29));
  }

  @Test
  void tombstones_arePurgedAfterTheirTtl() {
    try (VirtualBelfry belfry =
        VirtualBelfry.builder()
            .settings(EngineSettings.DEFAULTS.withTombstoneTtl(Duration.ofMinutes(10)))
            .start()) {
      belfry.reminders().setAfter("k", Duration.ofMinutes(1), null);
      ReminderQuery fired = ReminderQuery.all().withState(ReminderStatus.FIRED);

      belfry.advanceBy(Duration.ofMinutes(2));
      assertThat(belfry.reminders().list(fired).items()).hasSize(1);

      belfry.advanceBy(Duration.ofMinutes(10));
      assertThat(belfry.reminders().list(fired).items()).isEmpty();
    }
  }
}
