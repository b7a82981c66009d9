package io.belfry.reminders.fire;

import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.model.ReminderRecord;
import java.util.List;

/**
 * What the engine announces, for audit and CDI events. Called without any engine lock held, on the
 * thread that did the work (caller, scheduler or delivery thread); an exception is logged and
 * ignored. Implementations should be quick: queue, don't do I/O. The exception is {@link #archive},
 * which may block and whose exception means "not archived".
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

  /** At-least-once: this node leased {@code fire}'s occurrence and starts its attempt. */
  default void delivering(ReminderFired fire) {}

  /** At-least-once: the attempt {@code fire} succeeded and its outcome is committed. */
  default void delivered(ReminderFired fire) {}

  /**
   * At-least-once: the attempt {@code fire} threw {@code failure}; the next attempt is due at
   * {@code retryAtMillis}.
   */
  default void retryScheduled(ReminderFired fire, Throwable failure, long retryAtMillis) {}

  /**
   * At-least-once: the last attempt failed or its lease expired; {@code deadLetter} is kept until
   * an operator redelivers or deletes it.
   */
  default void deadLettered(ReminderRecord deadLetter) {}

  /** An operator sent a dead letter again: {@code pending} is due now, with fresh attempts. */
  default void redeliveryRequested(ReminderRecord pending) {}

  /**
   * The misfire policy gave up {@code skippedPositions} positions of {@code record} (the version
   * that was due): overdue occurrences passed over, or the due one itself when not delivered.
   */
  default void skipped(ReminderRecord record, long skippedPositions) {}

  /**
   * Tombstones older than the TTL, about to be removed from the store: archive them first. Called
   * on the delivery executor, never on the firing thread, so it may block on I/O. Return normally
   * only once they are archived durably; throw to keep them in the store, and they are offered
   * again at a later sweep (a tombstone kept longer is harmless).
   */
  default void archive(List<ReminderRecord> tombstones) {}

  EngineListener NONE = new EngineListener() {};
}
