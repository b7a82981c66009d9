package io.belfry.reminders.model;

/** Where a stored reminder is in its life. Everything but {@link #PENDING} is a tombstone. */
public enum ReminderState {
  /** Armed: waits for its next occurrence. */
  PENDING,
  /** Its last occurrence fired. */
  FIRED,
  /** Cancelled by the application or an operator. */
  CANCELLED,
  /** Its last occurrence was skipped by the misfire policy. */
  SKIPPED;

  /**
   * Whether the entry only records the end of a reminder, so that a late or replayed older write
   * cannot resurrect it.
   */
  public boolean isTombstone() {
    return this != PENDING;
  }
}
