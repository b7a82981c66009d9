package io.belfry.reminders.api;

/** Where a reminder is in its life, as the API reports it. */
public enum ReminderStatus {
  /** Waits for its next occurrence, or, at least once, for the next attempt of a failed one. */
  PENDING,
  /** At least once: a node is delivering the due occurrence under a lease. */
  DELIVERING,
  /** Its last occurrence fired. */
  FIRED,
  /** Cancelled by the application or an operator. */
  CANCELLED,
  /** Its last occurrence was skipped by the misfire policy. */
  SKIPPED,
  /**
   * At least once: every attempt failed; kept with its payload until an operator redelivers or
   * cancels it. A recurring reminder waits here too: its next occurrences follow a redelivery.
   */
  DEAD_LETTER
}
