package io.belfry.reminders.schedule;

import io.belfry.reminders.api.Schedule;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The positions at which a reminder is scheduled to fire: a schedule plus its bounds, as pure
 * arithmetic on instants. It reads no clock; "now" is always an argument.
 *
 * <p>The idea: a timeline is the sequence first, next(first), next(next(first)), … where each step
 * starts from the <em>scheduled</em> time of the previous position, never from when it actually
 * fired, so late fires do not drift the timeline. Positions are numbered from 1. The sequence ends
 * at the first position after {@link Bounds#until()}, after {@link Bounds#maxOccurrences()}
 * positions, after a repeating interval's repetitions, or where it would leave the range of {@link
 * Instant}.
 *
 * <p>Catching up after downtime ({@link #firstAfter}) is arithmetic for fixed steps ({@code Every},
 * {@code Repeat}): an interval of 100 ms that is 3 days behind is one division, not 2.6 million
 * steps. Cron matches have no closed form, so they are walked one by one, at most {@link
 * #MAX_CRON_SKIP_STEPS} of them; past that budget the walk jumps straight to the first match after
 * the target, and positions numbered after the jump are lower than their true position by the
 * matches not walked (a maxOccurrences bound then ends the timeline correspondingly later). The
 * budget covers 34 days behind an every-minute cron and 5.7 years behind an hourly one.
 */
public final class Timeline {

  /** cron-utils needs about 20 µs per match, so the walk costs at most about one second. */
  static final int MAX_CRON_SKIP_STEPS = 50_000;

  private final Schedule schedule;
  private final Bounds bounds;
  private final WallClockCron cron; // only for Schedule.Cron
  private final Duration step; // only for Schedule.Every and Schedule.Repeat
  private final long lastNumber; // Long.MAX_VALUE when unbounded

  private Timeline(Schedule schedule, Bounds bounds) {
    this.schedule = schedule;
    this.bounds = bounds;
    long last = bounds.maxOccurrences() == null ? Long.MAX_VALUE : bounds.maxOccurrences();
    if (schedule instanceof Schedule.Once) {
      this.cron = null;
      this.step = null;
      this.lastNumber = 1;
    } else if (schedule instanceof Schedule.Every every) {
      this.cron = null;
      this.step = every.interval();
      this.lastNumber = last;
    } else if (schedule instanceof Schedule.Cron c) {
      this.cron = WallClockCron.parse(c.expression(), c.zone());
      this.step = null;
      this.lastNumber = last;
    } else if (schedule instanceof Schedule.Repeat repeat) {
      this.cron = null;
      this.step = repeat.period();
      this.lastNumber =
          repeat.repetitions() == null ? last : Math.min(last, repeat.repetitions().longValue());
    } else {
      throw new IllegalArgumentException("unknown schedule kind " + schedule);
    }
  }

  /**
   * The timeline of {@code schedule} within {@code bounds}.
   *
   * @throws IllegalArgumentException if a cron expression is invalid or never matches
   */
  public static Timeline of(Schedule schedule, Bounds bounds) {
    Objects.requireNonNull(schedule, "schedule is required");
    Objects.requireNonNull(bounds, "bounds are required (Bounds.NONE for none)");
    return new Timeline(schedule, bounds);
  }

  public Schedule schedule() {
    return schedule;
  }

  public Bounds bounds() {
    return bounds;
  }

  /**
   * Position 1: the first fire time of a reminder set at {@code now}.
   *
   * <ul>
   *   <li>{@code Once}: {@code requested}, which is required;
   *   <li>{@code Every}: {@code requested}, or {@code now + interval} without one;
   *   <li>{@code Cron}: {@code requested}, or the first match strictly after {@code now};
   *   <li>{@code Repeat}: its start, which the repeating interval carries ({@code requested} is
   *       ignored).
   * </ul>
   *
   * A first fire time in the past is allowed; the misfire policy decides what it means.
   *
   * @return empty if the bounds end the timeline before its first position (the reminder would
   *     never fire)
   * @throws IllegalArgumentException for a one-shot schedule without a first fire time
   */
  public Optional<Occurrence> first(Instant requested, Instant now) {
    Objects.requireNonNull(now, "now is required");
    Optional<Instant> due;
    if (schedule instanceof Schedule.Repeat repeat) {
      due = Optional.of(repeat.start());
    } else if (requested != null) {
      due = Optional.of(requested);
    } else if (schedule instanceof Schedule.Every) {
      due = plus(now, step, 1);
    } else if (schedule instanceof Schedule.Cron) {
      due = cron.nextAfter(now);
    } else {
      throw new IllegalArgumentException("a one-shot reminder needs a first fire time");
    }
    return due.filter(bounds::admits).map(d -> new Occurrence(d, 1));
  }

  /**
   * The position after {@code scheduled}: its due time is strictly later, computed from the
   * scheduled due time (never from when it fired).
   *
   * @return empty when the timeline ends at {@code scheduled}
   */
  public Optional<Occurrence> next(Occurrence scheduled) {
    Objects.requireNonNull(scheduled, "scheduled occurrence is required");
    if (scheduled.number() >= lastNumber) {
      return Optional.empty();
    }
    Optional<Instant> due =
        cron != null ? cron.nextAfter(scheduled.due()) : plus(scheduled.due(), step, 1);
    return due.filter(bounds::admits).map(d -> new Occurrence(d, scheduled.number() + 1));
  }

  /**
   * The first position after {@code scheduled} whose due time is strictly after {@code instant};
   * the positions in between are passed over. With {@code instant} not after {@code scheduled}'s
   * due time this is {@link #next}.
   */
  public Optional<Occurrence> firstAfter(Occurrence scheduled, Instant instant) {
    return advance(scheduled, instant).next();
  }

  /** The result of {@link #advance}: how many positions were passed over, and where it landed. */
  record Advance(long passed, Optional<Occurrence> next) {}

  /**
   * Like {@link #firstAfter}, also counting the positions strictly between {@code scheduled} and
   * the result (or, when the timeline ends, after {@code scheduled} up to its end).
   */
  Advance advance(Occurrence scheduled, Instant instant) {
    Objects.requireNonNull(scheduled, "scheduled occurrence is required");
    Objects.requireNonNull(instant, "instant is required");
    if (scheduled.number() >= lastNumber) {
      return new Advance(0, Optional.empty());
    }
    if (!instant.isAfter(scheduled.due())) {
      return new Advance(0, next(scheduled));
    }
    return cron != null ? walkCron(scheduled, instant) : leap(scheduled, instant);
  }

  /** Fixed steps: the k-th position after d is d + k·step, so k is one division. */
  private Advance leap(Occurrence scheduled, Instant instant) {
    Instant from = scheduled.due();
    long n = scheduled.number();
    // positions n+1 … n+k-1 are at or before `instant`, position n+k is the first after it
    long k = Duration.between(from, instant).dividedBy(step) + 1;
    long remaining = lastNumber - n; // positions left by count
    if (k <= remaining) {
      Optional<Instant> due = plus(from, step, k).filter(bounds::admits);
      if (due.isPresent()) {
        return new Advance(k - 1, Optional.of(new Occurrence(due.get(), n + k)));
      }
    }
    long passed = Math.min(k - 1, remaining);
    if (bounds.until() != null) {
      long withinUntil =
          bounds.until().isBefore(from)
              ? 0
              : Duration.between(from, bounds.until()).dividedBy(step);
      passed = Math.min(passed, withinUntil);
    }
    return new Advance(passed, Optional.empty());
  }

  /** Cron matches: one by one, within the budget documented on the class. */
  private Advance walkCron(Occurrence scheduled, Instant instant) {
    long passed = 0;
    Occurrence last = scheduled;
    for (int walked = 0; walked < MAX_CRON_SKIP_STEPS; walked++) {
      Optional<Occurrence> following = next(last);
      if (following.isEmpty() || following.get().due().isAfter(instant)) {
        return new Advance(passed, following);
      }
      last = following.get();
      passed++;
    }
    // Over budget: continue from the first match after `instant`, numbered as if it followed the
    // last position walked.
    if (last.number() >= lastNumber) {
      return new Advance(passed, Optional.empty());
    }
    long nextNumber = last.number() + 1;
    Optional<Occurrence> jumped =
        cron.nextAfter(instant).filter(bounds::admits).map(due -> new Occurrence(due, nextNumber));
    return new Advance(passed, jumped);
  }

  /** {@code from + k·step}, or empty where that leaves the range of {@link Instant}. */
  private static Optional<Instant> plus(Instant from, Duration step, long k) {
    try {
      return Optional.of(from.plus(step.multipliedBy(k)));
    } catch (ArithmeticException | DateTimeException beyondInstantRange) {
      return Optional.empty();
    }
  }

  @Override
  public String toString() {
    return "Timeline[" + schedule + ", " + bounds + "]";
  }
}
