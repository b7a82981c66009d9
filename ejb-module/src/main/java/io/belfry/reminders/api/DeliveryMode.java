package io.belfry.reminders.api;

/** How a fire reaches the application; chosen per reminder. */
public enum DeliveryMode {
  /** Tombstone first, then deliver: never twice, exactly once in steady state. */
  AT_MOST_ONCE,
  /**
   * Lease, deliver, then commit: an observer that throws, or a node that dies mid-delivery, leads
   * to another attempt with the same fence, with back-off, up to the namespace's maximum; then the
   * reminder becomes a dead letter. Handlers should de-duplicate by fence.
   */
  AT_LEAST_ONCE
}
