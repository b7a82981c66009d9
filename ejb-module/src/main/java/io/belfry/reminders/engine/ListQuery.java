package io.belfry.reminders.engine;

import io.belfry.reminders.model.ReminderState;
import java.time.Instant;

/**
 * A page request over the local replica, in cache-key order ({@code namespace:key}).
 *
 * @param namespace only this namespace, or {@code null} for all
 * @param keyPrefix only keys starting with this, or {@code null}; needs a namespace
 * @param state only this state, or {@code null} for all (tombstones included)
 * @param dueFrom only next due times at or after this, or {@code null}
 * @param dueTo only next due times strictly before this, or {@code null}
 * @param afterKey the cursor: only cache keys strictly after this one, or {@code null}
 * @param limit page size, at least 1
 */
public record ListQuery(
    String namespace,
    String keyPrefix,
    ReminderState state,
    Instant dueFrom,
    Instant dueTo,
    String afterKey,
    int limit) {

  public ListQuery {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1, was " + limit);
    }
    if (keyPrefix != null && namespace == null) {
      throw new IllegalArgumentException("keyPrefix needs a namespace");
    }
  }
}
