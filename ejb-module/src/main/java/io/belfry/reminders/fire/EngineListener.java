package io.belfry.reminders.fire;

import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.model.ReminderRecord;

/**
 * What the engine announces, for audit and CDI events. Called without any engine lock held, on the
 * thread that did the work (caller, scheduler or delivery thread); an exception is logged and
 * ignored. Implementations should be quick: queue, don't do I/O.
 */
public interface EngineListener {

  /** A new reminder (no live version before) was stored. */
  default void set(ReminderRecord record) {}

  /** A live version was replaced by a newer one; {@code previous} will never fire. */
  default void replaced(ReminderRecord previous, ReminderRecord current) {}

  /** A live version was cancelled; {@code tombstone} is what the store now holds. */
  default void cancelled(ReminderRecord tombstone) {}

  /** {@code fire} was delivered and the delivery returned normally. */
  default void fired(ReminderFired fire) {}

  /** The delivery of {@code fire} threw {@code failure}; the occurrence is not retried. */
  default void deliveryFailed(ReminderFired fire, Throwable failure) {}

  /**
   * The misfire policy gave up {@code skippedPositions} positions of {@code record} (the version
   * that was due): overdue occurrences passed over, or the due one itself when not delivered.
   */
  default void skipped(ReminderRecord record, long skippedPositions) {}

  /** A tombstone older than the TTL is about to be removed from the store. */
  default void purged(ReminderRecord tombstone) {}

  EngineListener NONE = new EngineListener() {};
}
