package io.belfry.audit;

import io.belfry.reminders.api.ReminderActivity;
import java.time.Instant;

/**
 * What to list from the archive: every filter optional, newest first, {@code limit} per page. Built
 * fluently from {@link #all()}; each {@code with…} returns a copy.
 *
 * @param from inclusive lower bound of the event time
 * @param until exclusive upper bound of the event time
 * @param cursor where the previous page ended ({@link AuditPage#next()}), or {@code null}
 */
public record AuditQuery(
    String namespace,
    String key,
    ReminderActivity.Type type,
    Instant from,
    Instant until,
    AuditCursor cursor,
    int limit) {

  public static final int DEFAULT_LIMIT = 50;
  public static final int MAX_LIMIT = 1_000;

  public AuditQuery {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT + ", got " + limit);
    }
  }

  public static AuditQuery all() {
    return new AuditQuery(null, null, null, null, null, null, DEFAULT_LIMIT);
  }

  public AuditQuery withNamespace(String value) {
    return new AuditQuery(value, key, type, from, until, cursor, limit);
  }

  public AuditQuery withKey(String value) {
    return new AuditQuery(namespace, value, type, from, until, cursor, limit);
  }

  public AuditQuery withType(ReminderActivity.Type value) {
    return new AuditQuery(namespace, key, value, from, until, cursor, limit);
  }

  public AuditQuery between(Instant fromInclusive, Instant untilExclusive) {
    return new AuditQuery(namespace, key, type, fromInclusive, untilExclusive, cursor, limit);
  }

  public AuditQuery withCursor(AuditCursor value) {
    return new AuditQuery(namespace, key, type, from, until, value, limit);
  }

  public AuditQuery withLimit(int value) {
    return new AuditQuery(namespace, key, type, from, until, cursor, value);
  }
}
