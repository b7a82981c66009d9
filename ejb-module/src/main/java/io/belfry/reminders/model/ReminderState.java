package io.belfry.reminders.model;

/**
 * Where a stored reminder is in its life. {@link #PENDING} and {@link #DELIVERING} are armed (they
 * come due); {@link #FIRED}, {@link #CANCELLED} and {@link #SKIPPED} are tombstones; {@link
 * #DEAD_LETTER} is neither: it waits for an operator.
 */
public enum ReminderState {
  /** Armed: waits for its next occurrence, or for the next attempt of an at-least-once delivery. */
  PENDING,
  /** At-least-once: leased by a node that is delivering it; armed at the lease's expiry. */
  DELIVERING,
  /** Its last occurrence fired. */
  FIRED,
  /** Cancelled by the application or an operator. */
  CANCELLED,
  /** Its last occurrence was skipped by the misfire policy. */
  SKIPPED,
  /** At-least-once: every attempt failed; kept until an operator redelivers or deletes it. */
  DEAD_LETTER;

  /**
   * Whether the entry only records the end of a reminder, so that a late or replayed older write
   * cannot resurrect it. Tombstones are purged after their TTL; a dead letter is not.
   */
  public boolean isTombstone() {
    return this == FIRED || this == CANCELLED || this == SKIPPED;
  }

  /** Whether the entry comes due by itself and belongs in the time index. */
  public boolean isArmed() {
    return this == PENDING || this == DELIVERING;
  }
}
