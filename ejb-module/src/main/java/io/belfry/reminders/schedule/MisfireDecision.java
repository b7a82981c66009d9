package io.belfry.reminders.schedule;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What to do with an occurrence that is due: whether to deliver it, which position replaces it, and
 * how many positions will never be delivered because of this decision.
 *
 * @param deliver whether {@code occurrence} reaches the application
 * @param occurrence the occurrence that was due
 * @param next the position that replaces it, possibly already overdue (it then fires right away);
 *     empty when the timeline has ended and the reminder becomes a tombstone
 * @param skipped positions given up by this decision: {@code occurrence} itself when not delivered,
 *     plus every position passed over between it and {@code next}
 */
public record MisfireDecision(
    boolean deliver, Occurrence occurrence, Optional<Occurrence> next, long skipped) {

  public MisfireDecision {
    Objects.requireNonNull(occurrence, "occurrence is required");
    Objects.requireNonNull(next, "next is required (Optional.empty() for none)");
    if (skipped < 0) {
      throw new IllegalArgumentException("skipped must not be negative, was " + skipped);
    }
  }

  /** The due time of {@link #next()}, if any. */
  public Optional<Instant> nextDue() {
    return next.map(Occurrence::due);
  }
}
