package io.belfry.reminders.api;

import io.belfry.reminders.api.validation.OrderedDueRange;
import io.belfry.reminders.api.validation.ReminderNamespace;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Instant;

/**
 * A filter and a page position for {@link Reminders#list(ReminderQuery)}. Every filter is optional
 * ({@code null}: no filter); results come in key order, {@code limit} at a time, and {@code cursor}
 * continues after the page that returned it.
 *
 * <pre>{@code
 * ReminderQuery.all().withKeyPrefix("cart-").withState(ReminderStatus.PENDING).withLimit(100)
 * }</pre>
 *
 * @param namespace only this namespace; {@code null} for every namespace (operators' view)
 * @param keyPrefix keys starting with this; at most 512 printable characters
 * @param dueAfter next fire time at or after this instant
 * @param dueBefore next fire time strictly before this instant; after {@code dueAfter}
 * @param limit 1 to {@link #MAX_LIMIT}, default {@link #DEFAULT_LIMIT}
 * @param cursor {@link ReminderPage#next()} of the previous page; opaque
 */
@OrderedDueRange
public record ReminderQuery(
    @ReminderNamespace String namespace,
    @Size(max = 512, message = "must be at most 512 characters")
        @Pattern(regexp = "\\P{Cc}*", message = "must not contain control characters")
        String keyPrefix,
    ReminderStatus state,
    Instant dueAfter,
    Instant dueBefore,
    @Min(value = 1, message = "must be at least 1")
        @Max(value = MAX_LIMIT, message = "must be at most 1000")
        int limit,
    @Size(max = 1024, message = "is not a cursor this API returned") String cursor) {

  public static final int DEFAULT_LIMIT = 50;
  public static final int MAX_LIMIT = 1000;

  /** No filter: every namespace, the first {@link #DEFAULT_LIMIT}. */
  public static ReminderQuery all() {
    return new ReminderQuery(null, null, null, null, null, DEFAULT_LIMIT, null);
  }

  public ReminderQuery withNamespace(String namespace) {
    return new ReminderQuery(namespace, keyPrefix, state, dueAfter, dueBefore, limit, cursor);
  }

  public ReminderQuery withKeyPrefix(String keyPrefix) {
    return new ReminderQuery(namespace, keyPrefix, state, dueAfter, dueBefore, limit, cursor);
  }

  public ReminderQuery withState(ReminderStatus state) {
    return new ReminderQuery(namespace, keyPrefix, state, dueAfter, dueBefore, limit, cursor);
  }

  public ReminderQuery withDueAfter(Instant dueAfter) {
    return new ReminderQuery(namespace, keyPrefix, state, dueAfter, dueBefore, limit, cursor);
  }

  public ReminderQuery withDueBefore(Instant dueBefore) {
    return new ReminderQuery(namespace, keyPrefix, state, dueAfter, dueBefore, limit, cursor);
  }

  public ReminderQuery withLimit(int limit) {
    return new ReminderQuery(namespace, keyPrefix, state, dueAfter, dueBefore, limit, cursor);
  }

  public ReminderQuery withCursor(String cursor) {
    return new ReminderQuery(namespace, keyPrefix, state, dueAfter, dueBefore, limit, cursor);
  }
}
