package io.belfry.reminders.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random fixed-interval timelines checked against their definition: each step is exactly the
 * interval, catching up lands where stepping would, and no decision ever moves time backwards.
 */
class TimelinePropertyTest {

  private static final long SEED = 0x5EEDBE11L; // fixed, so a failure reproduces
  private static final int CASES = 2_000;

  @Test
  void next_randomEvery_differenceIsInterval() {
    SplittableRandom random = new SplittableRandom(SEED);
    for (int i = 0; i < CASES; i++) {
      Duration interval = randomInterval(random);
      Timeline timeline = Timeline.of(new Schedule.Every(interval), Bounds.NONE);
      Occurrence scheduled = new Occurrence(randomInstant(random), 1 + random.nextInt(1_000));
      Occurrence next = timeline.next(scheduled).orElseThrow();
      assertThat(Duration.between(scheduled.due(), next.due())).isEqualTo(interval);
      assertThat(next.number()).isEqualTo(scheduled.number() + 1);
    }
  }

  @Test
  void advance_randomEvery_matchesStepByStepReference() {
    SplittableRandom random = new SplittableRandom(SEED + 1);
    for (int i = 0; i < CASES; i++) {
      Duration interval = Duration.ofMillis(1 + random.nextInt(10_000));
      Timeline timeline = Timeline.of(new Schedule.Every(interval), Bounds.NONE);
      Occurrence scheduled = new Occurrence(randomInstant(random), 1);
      Instant now = scheduled.due().plusMillis(random.nextInt(200_000));

      Occurrence reference = timeline.next(scheduled).orElseThrow();
      long passed = 0;
      while (!reference.due().isAfter(now)) {
        reference = timeline.next(reference).orElseThrow();
        passed++;
      }
      assertThat(timeline.advance(scheduled, now))
          .isEqualTo(new Timeline.Advance(passed, Optional.of(reference)));
    }
  }

  @Test
  void decide_randomEveryAndPolicy_neverMovesTimeBackwards() {
    SplittableRandom random = new SplittableRandom(SEED + 2);
    MisfirePolicy[] policies = MisfirePolicy.values();
    for (int i = 0; i < CASES; i++) {
      Duration interval = randomInterval(random);
      Long max = random.nextBoolean() ? null : (long) (1 + random.nextInt(50));
      Timeline timeline = Timeline.of(new Schedule.Every(interval), new Bounds(null, max));
      Occurrence due = new Occurrence(randomInstant(random), 1);
      Instant now =
          due.due()
              .plus(interval.multipliedBy(random.nextInt(100)))
              .plusMillis(random.nextInt(1_000));
      MisfirePolicy policy = policies[random.nextInt(policies.length)];
      Duration deadline = random.nextBoolean() ? null : Duration.ofMillis(random.nextInt(100_000));

      MisfireDecision decision = MisfirePlan.decide(timeline, due, now, policy, deadline);

      decision
          .next()
          .ifPresent(
              next -> {
                assertThat(next.due()).isAfter(due.due());
                assertThat(next.number()).isGreaterThan(due.number());
                assertThat(max == null || next.number() <= max).isTrue();
                // the positions given up are exactly the gap in the numbering
                long undelivered = decision.deliver() ? 0 : 1;
                assertThat(next.number() - due.number() - 1 + undelivered)
                    .isEqualTo(decision.skipped());
                if (policy == MisfirePolicy.FIRE_ONCE) {
                  assertThat(next.due()).isAfter(now);
                }
              });
    }
  }

  private static Duration randomInterval(SplittableRandom random) {
    switch (random.nextInt(3)) {
      case 0:
        return Duration.ofMillis(1 + random.nextInt(1_000));
      case 1:
        return Duration.ofSeconds(1 + random.nextInt(86_400));
      default:
        return Duration.ofNanos(1 + random.nextLong(Duration.ofDays(30).toNanos()));
    }
  }

  private static Instant randomInstant(SplittableRandom random) {
    // around the epoch on both sides, to cross zero
    return Instant.ofEpochSecond(
        random.nextLong(-4_000_000_000L, 4_000_000_000L), random.nextInt(1_000_000_000));
  }
}
