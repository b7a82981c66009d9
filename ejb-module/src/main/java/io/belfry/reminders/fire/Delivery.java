package io.belfry.reminders.fire;

import io.belfry.reminders.api.ReminderFired;

/**
 * Hands a fire to the application (the CDI layer fires the {@code ReminderFired} event here). Runs
 * on the delivery executor, after the fire is committed; an exception is logged and announced as a
 * delivery failure and affects no other reminder. Under at-most-once delivery there is no retry.
 */
@FunctionalInterface
public interface Delivery {
  void deliver(ReminderFired fire) throws Exception;
}
