package io.belfry.reminders.schedule;

import io.belfry.reminders.api.MisfirePolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Decides, when an occurrence is due, whether to deliver it and which position of the timeline
 * replaces it, under the reminder's {@link MisfirePolicy}. Pure: "now" is an argument.
 *
 * <p>The idea: an occurrence is <em>overdue</em> when later positions of its timeline are already
 * at or before now (after downtime, or while no deployment served its namespace). The policy says
 * what happens to those positions:
 *
 * <ul>
 *   <li>{@link MisfirePolicy#FIRE_ONCE} (the default): deliver this one, pass over every position
 *       at or before now, continue with the first one strictly after now. In steady state (fired a
 *       millisecond late) that is simply the next position.
 *   <li>{@link MisfirePolicy#FIRE_ALL}: deliver this one and continue with the following position
 *       even if it is overdue too; it fires right after, and so on until caught up.
 *   <li>{@link MisfirePolicy#SKIP}: an occurrence later than {@code deadline} (now − due &gt;
 *       deadline) is not delivered, nor is any following position that is also past the deadline:
 *       the decision continues with the first position due at or after now − deadline, which is
 *       what deciding each of them in turn would give, in one step. One within the deadline is
 *       delivered and followed by the next position. SKIP without a deadline never skips.
 * </ul>
 *
 * A one-shot reminder has one position: found overdue it fires at once, unless SKIP and past its
 * deadline.
 *
 * <p><b>Occurrence numbers count timeline positions, delivered or not.</b> Position n is the same
 * instant whatever happened to the node, so a number identifies an occurrence (a handler sees
 * occurrence 7 as the 7th scheduled time, and a gap in the numbers it receives is exactly the
 * skipped positions). Both count limits bound positions, not deliveries: {@code R5/…} has five
 * positions and {@code maxOccurrences = 5} means the same thing, just as {@code until} bounds
 * positions by time. A bounded reminder therefore ends at a time known when it is set, whatever the
 * downtime, and the decision needs no delivery counter stored beside the entry. The cost: under
 * FIRE_ONCE or SKIP a reminder whose positions passed during downtime delivers fewer than its
 * maximum; the audit records the {@link MisfireDecision#skipped() skipped} count, and reminders
 * that must deliver every position use FIRE_ALL.
 */
public final class MisfirePlan {

  /** The policy applied when a reminder names none. */
  public static final MisfirePolicy DEFAULT_POLICY = MisfirePolicy.FIRE_ONCE;

  private MisfirePlan() {}

  /**
   * Decides what happens to {@code due}, a position of {@code timeline} whose time has come.
   *
   * @param policy {@code null} for {@link #DEFAULT_POLICY}
   * @param deadline how late an occurrence may still be delivered under SKIP; {@code null} for no
   *     deadline; ignored by the other policies
   * @throws IllegalArgumentException if {@code due} is not yet due at {@code now}, or the deadline
   *     is negative
   */
  public static MisfireDecision decide(
      Timeline timeline, Occurrence due, Instant now, MisfirePolicy policy, Duration deadline) {
    Objects.requireNonNull(timeline, "timeline is required");
    Objects.requireNonNull(due, "due occurrence is required");
    Objects.requireNonNull(now, "now is required");
    if (now.isBefore(due.due())) {
      throw new IllegalArgumentException(
          "occurrence " + due.number() + " is due at " + due.due() + ", not yet at " + now);
    }
    if (deadline != null && deadline.isNegative()) {
      throw new IllegalArgumentException("misfire deadline must not be negative, was " + deadline);
    }
    MisfirePolicy effective = policy == null ? DEFAULT_POLICY : policy;
    switch (effective) {
      case FIRE_ONCE:
        Timeline.Advance caughtUp = timeline.advance(due, now);
        return new MisfireDecision(true, due, caughtUp.next(), caughtUp.passed());
      case FIRE_ALL:
        return new MisfireDecision(true, due, timeline.next(due), 0);
      case SKIP:
        return skip(timeline, due, now, deadline);
      default:
        throw new IllegalArgumentException("unknown misfire policy " + effective);
    }
  }

  private static MisfireDecision skip(
      Timeline timeline, Occurrence due, Instant now, Duration deadline) {
    boolean late = deadline != null && Duration.between(due.due(), now).compareTo(deadline) > 0;
    if (!late) {
      // next is strictly after due, which is within the deadline, so it is not late either
      return new MisfireDecision(true, due, timeline.next(due), 0);
    }
    // Positions strictly before the cutoff are late; the first at or after it is the next one.
    // Instants count nanoseconds, so "at or after cutoff" is "strictly after cutoff - 1 ns".
    Instant cutoff = now.minus(deadline);
    Timeline.Advance pastLate = timeline.advance(due, cutoff.minusNanos(1));
    return new MisfireDecision(false, due, pastLate.next(), 1 + pastLate.passed());
  }
}
