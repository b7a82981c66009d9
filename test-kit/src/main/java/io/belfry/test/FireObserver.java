package io.belfry.test;

import io.belfry.reminders.api.ReminderFired;

/**
 * A test's observer of fires, called as a synchronous CDI observer would be: on the firing thread,
 * and an exception fails the delivery (under at-least-once delivery, the attempt is retried).
 */
@FunctionalInterface
public interface FireObserver {
  void onFire(ReminderFired fire) throws Exception;
}
