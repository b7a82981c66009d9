package io.belfry.reminders.api;

import java.time.Instant;
import java.util.Objects;

/**
 * What happened to a reminder, announced as a CDI event by the engine of the node where it
 * happened: for the audit archive, metrics and the console. Immutable and non-generic, like {@link
 * ReminderFired}. Observers must not block: the engine calls them on its own threads.
 *
 * @param type what happened
 * @param version the version concerned (the fence of a fire)
 * @param occurrence the position concerned (0 when none applies)
 * @param dueAt when the occurrence was due, or {@code null}
 * @param at when it happened, on this node's clock
 * @param node the node where it happened
 * @param detail a failure's message, or the number of skipped positions; {@code null} otherwise
 */
public record ReminderActivity(
    Type type,
    String namespace,
    String key,
    long version,
    long occurrence,
    Instant dueAt,
    Instant at,
    String node,
    String detail) {

  /** The kinds of activity; the audit archive keeps one record per activity. */
  public enum Type {
    SET,
    REPLACED,
    CANCELLED,
    FIRED,
    DELIVERY_FAILED,
    SKIPPED,
    TOMBSTONE_PURGED
  }

  public ReminderActivity {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(at, "at");
  }
}
