package io.belfry.reminders.api;

/** How a fire reaches the application. */
public enum DeliveryMode {
  /** Tombstone first, then deliver: never twice, exactly once in steady state. */
  AT_MOST_ONCE
}
