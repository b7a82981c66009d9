package io.belfry.reminders.api;

/** Where a reminder is in its life, as the API reports it. */
public enum ReminderStatus {
  /** Waits for its next occurrence. */
  PENDING,
  /** Its last occurrence fired. */
  FIRED,
  /** Cancelled by the application or an operator. */
  CANCELLED,
  /** Its last occurrence was skipped by the misfire policy. */
  SKIPPED
}
