package io.belfry.reminders.schedule;

import static io.belfry.reminders.api.MisfirePolicy.FIRE_ALL;
import static io.belfry.reminders.api.MisfirePolicy.FIRE_ONCE;
import static io.belfry.reminders.api.MisfirePolicy.SKIP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.api.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MisfirePlanTest {

  private static final Instant T0 = Instant.parse("2026-11-21T09:00:00Z");
  private static final Timeline HOURLY =
      Timeline.of(new Schedule.Every(Duration.ofHours(1)), Bounds.NONE);
  private static final Timeline ONCE = Timeline.of(new Schedule.Once(), Bounds.NONE);

  private static Occurrence first(Instant due) {
    return new Occurrence(due, 1);
  }

  // --- FIRE_ONCE -----------------------------------------------------------------------------

  @Test
  void decide_fireOnceSteadyState_deliversAndNextIsFollowing() {
    MisfireDecision d = MisfirePlan.decide(HOURLY, first(T0), T0.plusMillis(1), FIRE_ONCE, null);
    assertThat(d)
        .isEqualTo(
            new MisfireDecision(
                true, first(T0), Optional.of(new Occurrence(T0.plusSeconds(3600), 2)), 0));
  }

  @Test
  void decide_fireOnceOnTime_nextIsFollowing() {
    MisfireDecision d = MisfirePlan.decide(HOURLY, first(T0), T0, FIRE_ONCE, null);
    assertThat(d.nextDue()).contains(T0.plusSeconds(3600));
  }

  @Test
  void decide_fireOnceFarBehind_deliversOnceAndSkipsToFuture() {
    Instant now = T0.plus(Duration.ofHours(5)).plusSeconds(1);
    MisfireDecision d = MisfirePlan.decide(HOURLY, first(T0), now, FIRE_ONCE, null);
    assertThat(d.deliver()).isTrue();
    assertThat(d.next()).contains(new Occurrence(T0.plus(Duration.ofHours(6)), 7));
    assertThat(d.skipped()).isEqualTo(5); // 10:00 … 14:00
  }

  @Test
  void decide_fireOnceEvery100msThreeDaysBehind_arithmetic() {
    Timeline fast = Timeline.of(new Schedule.Every(Duration.ofMillis(100)), Bounds.NONE);
    Instant now = T0.plus(Duration.ofDays(3)).plusMillis(50);
    MisfireDecision d = MisfirePlan.decide(fast, first(T0), now, FIRE_ONCE, null);
    assertThat(d.skipped()).isEqualTo(2_592_000);
    assertThat(d.next())
        .contains(new Occurrence(T0.plus(Duration.ofDays(3)).plusMillis(100), 2_592_002));
  }

  @Test
  void decide_fireOnceOverdueOneShot_deliversAndEnds() {
    MisfireDecision d =
        MisfirePlan.decide(ONCE, first(T0), T0.plus(Duration.ofDays(30)), FIRE_ONCE, null);
    assertThat(d).isEqualTo(new MisfireDecision(true, first(T0), Optional.empty(), 0));
  }

  @Test
  void decide_fireOnceRepeatAllOverdue_deliversOnceAndCountsRestSkipped() {
    Timeline r = Timeline.of(ScheduleParser.repeat("R5/2026-11-21T09:00:00Z/PT1H"), Bounds.NONE);
    MisfireDecision d =
        MisfirePlan.decide(r, first(T0), T0.plus(Duration.ofDays(1)), FIRE_ONCE, null);
    assertThat(d).isEqualTo(new MisfireDecision(true, first(T0), Optional.empty(), 4));
  }

  @Test
  void decide_fireOnceMaxOccurrences_skippedPositionsConsumeTheCount() {
    Timeline max3 =
        Timeline.of(new Schedule.Every(Duration.ofHours(1)), Bounds.NONE.withMaxOccurrences(3L));
    MisfireDecision d =
        MisfirePlan.decide(max3, first(T0), T0.plus(Duration.ofMinutes(90)), FIRE_ONCE, null);
    assertThat(d.next()).contains(new Occurrence(T0.plus(Duration.ofHours(2)), 3));
    assertThat(d.skipped()).isEqualTo(1);
  }

  @Test
  void decide_fireOnceUntilPassed_ends() {
    Timeline ttl =
        Timeline.of(
            new Schedule.Every(Duration.ofHours(1)),
            Bounds.NONE.withUntil(T0.plus(Duration.ofHours(2))));
    MisfireDecision d =
        MisfirePlan.decide(ttl, first(T0), T0.plus(Duration.ofHours(10)), FIRE_ONCE, null);
    assertThat(d).isEqualTo(new MisfireDecision(true, first(T0), Optional.empty(), 2));
  }

  @Test
  void decide_fireOnceCronBehind_nextIsFutureMatch() {
    Timeline daily =
        Timeline.of(new Schedule.Cron("0 9 * * *", ZoneId.of("Europe/Paris")), Bounds.NONE);
    Occurrence due = new Occurrence(Instant.parse("2026-11-01T08:00:00Z"), 3);
    MisfireDecision d =
        MisfirePlan.decide(daily, due, Instant.parse("2026-11-05T12:00:00Z"), FIRE_ONCE, null);
    assertThat(d.next()).contains(new Occurrence(Instant.parse("2026-11-06T08:00:00Z"), 8));
    assertThat(d.skipped()).isEqualTo(4); // 2nd … 5th November
  }

  @Test
  void decide_nullPolicy_isFireOnce() {
    Instant now = T0.plus(Duration.ofHours(3)).plusSeconds(1);
    assertThat(MisfirePlan.decide(HOURLY, first(T0), now, null, null))
        .isEqualTo(MisfirePlan.decide(HOURLY, first(T0), now, FIRE_ONCE, null));
  }

  // --- FIRE_ALL ------------------------------------------------------------------------------

  @Test
  void decide_fireAllBehind_nextIsFollowingEvenIfOverdue() {
    Instant now = T0.plus(Duration.ofHours(5));
    MisfireDecision d = MisfirePlan.decide(HOURLY, first(T0), now, FIRE_ALL, null);
    assertThat(d)
        .isEqualTo(
            new MisfireDecision(
                true, first(T0), Optional.of(new Occurrence(T0.plusSeconds(3600), 2)), 0));
  }

  @Test
  void decide_fireAllChain_deliversEveryMissedPositionThenCatchesUp() {
    Timeline r = Timeline.of(ScheduleParser.repeat("R5/2026-11-21T09:00:00Z/PT1H"), Bounds.NONE);
    Instant now = T0.plus(Duration.ofDays(1));
    Optional<Occurrence> cursor = Optional.of(first(T0));
    int delivered = 0;
    while (cursor.isPresent()) {
      MisfireDecision d = MisfirePlan.decide(r, cursor.get(), now, FIRE_ALL, null);
      assertThat(d.deliver()).isTrue();
      delivered++;
      cursor = d.next();
    }
    assertThat(delivered).isEqualTo(5);
  }

  // --- SKIP ----------------------------------------------------------------------------------

  @Test
  void decide_skipWithinDeadline_delivers() {
    MisfireDecision d =
        MisfirePlan.decide(HOURLY, first(T0), T0.plusSeconds(30), SKIP, Duration.ofMinutes(1));
    assertThat(d)
        .isEqualTo(
            new MisfireDecision(
                true, first(T0), Optional.of(new Occurrence(T0.plusSeconds(3600), 2)), 0));
  }

  @Test
  void decide_skipExactlyAtDeadline_delivers() {
    MisfireDecision d =
        MisfirePlan.decide(HOURLY, first(T0), T0.plusSeconds(60), SKIP, Duration.ofMinutes(1));
    assertThat(d.deliver()).isTrue();
  }

  @Test
  void decide_skipPastDeadline_notDeliveredNextIsFollowing() {
    MisfireDecision d =
        MisfirePlan.decide(
            HOURLY, first(T0), T0.plusSeconds(60).plusNanos(1), SKIP, Duration.ofMinutes(1));
    assertThat(d)
        .isEqualTo(
            new MisfireDecision(
                false, first(T0), Optional.of(new Occurrence(T0.plusSeconds(3600), 2)), 1));
  }

  @Test
  void decide_skipFarBehind_skipsEveryLatePositionInOneStep() {
    // 5 h 30 min behind, deadline 45 min: 09:00 … 13:00 are later than the deadline; 14:00
    // (30 min old) is not, so it is next, overdue but deliverable
    Instant now = T0.plus(Duration.ofMinutes(5 * 60 + 30));
    MisfireDecision d = MisfirePlan.decide(HOURLY, first(T0), now, SKIP, Duration.ofMinutes(45));
    assertThat(d.deliver()).isFalse();
    assertThat(d.next()).contains(new Occurrence(T0.plus(Duration.ofHours(5)), 6));
    assertThat(d.skipped()).isEqualTo(5);
  }

  @Test
  void decide_skipFarBehindShortDeadline_nextIsInFuture() {
    Instant now = T0.plus(Duration.ofMinutes(5 * 60 + 30)); // 14:30
    MisfireDecision d = MisfirePlan.decide(HOURLY, first(T0), now, SKIP, Duration.ofMinutes(10));
    assertThat(d.deliver()).isFalse();
    assertThat(d.next()).contains(new Occurrence(T0.plus(Duration.ofHours(6)), 7)); // 15:00
    assertThat(d.skipped()).isEqualTo(6);
  }

  @Test
  void decide_skipFarBehindWithLongDeadline_nextIsOverdueButWithinDeadline() {
    Instant now = T0.plus(Duration.ofMinutes(5 * 60 + 30)); // 14:30
    MisfireDecision d = MisfirePlan.decide(HOURLY, first(T0), now, SKIP, Duration.ofMinutes(90));
    assertThat(d.deliver()).isFalse();
    assertThat(d.next()).contains(new Occurrence(T0.plus(Duration.ofHours(4)), 5)); // 13:00
    assertThat(d.skipped()).isEqualTo(4);
    MisfireDecision then =
        MisfirePlan.decide(HOURLY, d.next().get(), now, SKIP, Duration.ofMinutes(90));
    assertThat(then.deliver()).isTrue();
  }

  @Test
  void decide_skipOverdueOneShotPastDeadline_notDeliveredAndEnds() {
    MisfireDecision d =
        MisfirePlan.decide(
            ONCE, first(T0), T0.plus(Duration.ofHours(2)), SKIP, Duration.ofHours(1));
    assertThat(d).isEqualTo(new MisfireDecision(false, first(T0), Optional.empty(), 1));
  }

  @Test
  void decide_skipOverdueOneShotWithinDeadline_delivered() {
    MisfireDecision d =
        MisfirePlan.decide(
            ONCE, first(T0), T0.plus(Duration.ofMinutes(30)), SKIP, Duration.ofHours(1));
    assertThat(d).isEqualTo(new MisfireDecision(true, first(T0), Optional.empty(), 0));
  }

  @Test
  void decide_skipWithoutDeadline_neverSkips() {
    MisfireDecision d =
        MisfirePlan.decide(HOURLY, first(T0), T0.plus(Duration.ofDays(10)), SKIP, null);
    assertThat(d.deliver()).isTrue();
    assertThat(d.next()).contains(new Occurrence(T0.plusSeconds(3600), 2));
  }

  @Test
  void decide_skipZeroDeadline_skipsAnythingLate() {
    assertThat(MisfirePlan.decide(HOURLY, first(T0), T0, SKIP, Duration.ZERO).deliver()).isTrue();
    assertThat(
            MisfirePlan.decide(HOURLY, first(T0), T0.plusNanos(1), SKIP, Duration.ZERO).deliver())
        .isFalse();
  }

  // --- inputs --------------------------------------------------------------------------------

  @Test
  void decide_notYetDue_rejected() {
    assertThatThrownBy(
            () -> MisfirePlan.decide(HOURLY, first(T0), T0.minusMillis(1), FIRE_ONCE, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "occurrence 1 is due at 2026-11-21T09:00:00Z, not yet at 2026-11-21T08:59:59.999Z");
  }

  @Test
  void decide_negativeDeadline_rejected() {
    assertThatThrownBy(
            () -> MisfirePlan.decide(HOURLY, first(T0), T0, SKIP, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("misfire deadline must not be negative, was PT-1S");
  }
}
