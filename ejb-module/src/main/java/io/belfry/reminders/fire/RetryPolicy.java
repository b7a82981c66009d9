package io.belfry.reminders.fire;

import java.time.Duration;
import java.util.Objects;

/**
 * How an at-least-once delivery is retried after a failed attempt: exponential back-off from {@link
 * #initialDelay()}, multiplied by {@link #multiplier()} per attempt and capped at {@link
 * #maxDelay()}, with "equal jitter" (a random point in the upper half of the delay), so that the
 * retries of many reminders that failed together spread out instead of failing together again.
 *
 * <p>A retry is not a loop in memory but a write: the entry goes back to pending, due at the retry
 * time, so it survives the node and is retried by whichever node owns it then. That is why no retry
 * library applies here; this record only computes the delays.
 *
 * @param maxAttempts deliveries in all, the first included; after the last one fails the reminder
 *     becomes a dead letter
 */
public record RetryPolicy(
    int maxAttempts, Duration initialDelay, double multiplier, Duration maxDelay) {

  /** Five attempts, 1 s, 2 s, 4 s, 8 s apart before jitter. */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(5, Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5));

  public RetryPolicy {
    Objects.requireNonNull(initialDelay, "initialDelay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    if (maxAttempts < 1 || maxAttempts > 100) {
      throw new IllegalArgumentException("maxAttempts must be 1 to 100, was " + maxAttempts);
    }
    if (initialDelay.isNegative() || maxDelay.compareTo(initialDelay) < 0) {
      throw new IllegalArgumentException(
          "delays must satisfy 0 <= initialDelay <= maxDelay, were "
              + initialDelay
              + " and "
              + maxDelay);
    }
    if (!(multiplier >= 1.0 && multiplier <= 10.0)) {
      throw new IllegalArgumentException("multiplier must be 1 to 10, was " + multiplier);
    }
  }

  /**
   * The pause after failed attempt {@code failedAttempt} (from 1), for a uniform random {@code
   * random} in [0, 1).
   */
  public long delayMillisAfter(int failedAttempt, double random) {
    double base = initialDelay.toMillis() * Math.pow(multiplier, Math.max(0, failedAttempt - 1));
    double capped = Math.min(base, maxDelay.toMillis());
    return Math.round(capped / 2 + random * capped / 2);
  }
}
