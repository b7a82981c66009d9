package io.belfry.reminders.model;

import java.util.Objects;

/**
 * How far the at-least-once delivery of one occurrence has got; absent (null in {@link
 * ReminderRecord}) until the occurrence's first lease, and after it is committed.
 *
 * <p>Every step of a delivery (lease, renewal, retry, dead letter) is written under a newly minted
 * version, so replicas order them as they order any write; what stays fixed across the steps is the
 * {@link #fence()}, the version of the pending entry the occurrence was first due in, which every
 * attempt carries so that an idempotent handler can de-duplicate.
 *
 * @param fence the version the occurrence was due in; every attempt's {@code ReminderFired} carries
 *     it
 * @param attempts how many deliveries have been started, from 1 (0 after an operator's redeliver)
 * @param leaseHolder the node that took the last lease, or {@code null}
 * @param wakeAtMillis when the entry next comes due: the lease's expiry while {@code DELIVERING},
 *     the next attempt while {@code PENDING}, the time of dead-lettering while {@code DEAD_LETTER}
 * @param lastError what the last failed attempt threw, shortened; {@code null} if none failed
 */
public record DeliveryProgress(
    long fence, int attempts, String leaseHolder, long wakeAtMillis, String lastError) {

  /** Longer error messages are cut: they live in every replica of the entry. */
  public static final int MAX_ERROR_LENGTH = 500;

  public DeliveryProgress {
    if (fence <= 0) {
      throw new IllegalArgumentException("fence must be positive, was " + fence);
    }
    if (attempts < 0) {
      throw new IllegalArgumentException("attempts must not be negative, was " + attempts);
    }
    if (lastError != null && lastError.length() > MAX_ERROR_LENGTH) {
      lastError = lastError.substring(0, MAX_ERROR_LENGTH);
    }
  }

  /** What {@code failure} says about itself, for {@link #lastError()}. */
  public static String describe(Throwable failure) {
    Objects.requireNonNull(failure, "failure");
    String message = failure.getMessage();
    return message == null || message.isBlank()
        ? failure.getClass().getName()
        : failure.getClass().getSimpleName() + ": " + message;
  }
}
