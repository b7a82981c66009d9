package io.belfry.reminders.api;

import java.time.Instant;
import java.util.Objects;

/**
 * What happened to a reminder, announced as a CDI event by the engine of the node where it
 * happened: for the audit archive, metrics and the console. Immutable and non-generic, like {@link
 * ReminderFired}. Observers must not block: the engine calls them on its own threads.
 *
 * @param type what happened
 * @param version the version concerned: the fence of a fire, which all steps of an at-least-once
 *     delivery share
 * @param occurrence the position concerned (0 when none applies)
 * @param dueAt when the occurrence was due, or {@code null}
 * @param at when it happened, on this node's clock
 * @param node the node where it happened
 * @param detail a failure's message, or the number of skipped positions; {@code null} otherwise
 * @param principal who made the change (set, replace, cancel) through the API or the console, as
 *     the container names the caller; {@code null} for what the engine does by itself
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
    String detail,
    String principal) {

  /** The kinds of activity; the audit archive keeps one record per activity. */
  public enum Type {
    SET,
    REPLACED,
    CANCELLED,
    FIRED,
    DELIVERY_FAILED,
    SKIPPED,
    /** Archived in an {@link ExpiredTombstones} event just before the tombstone is removed. */
    TOMBSTONE_PURGED,
    /** At least once: a node leased the due occurrence and starts attempt {@code detail}. */
    DELIVERING,
    /** At least once: an attempt succeeded and the occurrence is committed. */
    DELIVERED,
    /** At least once: an attempt failed; {@code detail} says why and when the next one is. */
    RETRY_SCHEDULED,
    /** At least once: the last attempt failed (or its lease expired); kept as a dead letter. */
    DEAD_LETTERED,
    /** An operator sent a dead letter again. */
    REDELIVERY_REQUESTED
  }

  /** An activity of the engine itself, with no principal. */
  public ReminderActivity(
      Type type,
      String namespace,
      String key,
      long version,
      long occurrence,
      Instant dueAt,
      Instant at,
      String node,
      String detail) {
    this(type, namespace, key, version, occurrence, dueAt, at, node, detail, null);
  }

  public ReminderActivity {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(at, "at");
  }
}
