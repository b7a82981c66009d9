package io.belfry.reminders.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * A reminder as {@link Reminders#get(String)} and {@link Reminders#list(ReminderQuery)} report it:
 * an immutable snapshot of one version.
 *
 * @param version the hybrid-logical-clock version of this entry (the fence its fire carries)
 * @param nextFireAt when the reminder next comes due: the pending occurrence's due time, the next
 *     attempt of a failed at-least-once delivery, or the expiry of a delivery's lease; {@code null}
 *     for a tombstone or dead letter
 * @param scheduleText the schedule in normal form ({@link Schedule#text()}), e.g. {@code once},
 *     {@code every PT15M}, {@code cron 0 9 * * MON-FRI Europe/Paris}, {@code
 *     R5/2026-11-21T09:00:00Z/PT1H}
 * @param occurrence the position of the pending (or last) occurrence, from 1
 * @param payload copied in and out; never {@code null}
 * @param attempts at least once: deliveries of the due occurrence started so far (0 if none)
 * @param lastError at least once: what the last failed attempt threw, or {@code null}
 */
public record Reminder(
    String namespace,
    String key,
    long version,
    ReminderStatus state,
    Instant nextFireAt,
    Schedule schedule,
    String scheduleText,
    Instant until,
    Integer maxOccurrences,
    long occurrence,
    MisfirePolicy misfire,
    Duration deadline,
    DeliveryMode delivery,
    byte[] payload,
    String contentType,
    Instant createdAt,
    Instant updatedAt,
    int attempts,
    String lastError) {

  public Reminder {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(misfire, "misfire");
    Objects.requireNonNull(delivery, "delivery");
    payload = payload == null ? new byte[0] : payload.clone();
  }

  /** A copy, so that the snapshot stays immutable. */
  @Override
  public byte[] payload() {
    return payload.clone();
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Reminder other)) {
      return false;
    }
    return version == other.version
        && occurrence == other.occurrence
        && namespace.equals(other.namespace)
        && key.equals(other.key)
        && state == other.state
        && Objects.equals(nextFireAt, other.nextFireAt)
        && schedule.equals(other.schedule)
        && Objects.equals(scheduleText, other.scheduleText)
        && Objects.equals(until, other.until)
        && Objects.equals(maxOccurrences, other.maxOccurrences)
        && misfire == other.misfire
        && Objects.equals(deadline, other.deadline)
        && delivery == other.delivery
        && Arrays.equals(payload, other.payload)
        && Objects.equals(contentType, other.contentType)
        && Objects.equals(createdAt, other.createdAt)
        && Objects.equals(updatedAt, other.updatedAt)
        && attempts == other.attempts
        && Objects.equals(lastError, other.lastError);
  }

  @Override
  public int hashCode() {
    return Objects.hash(namespace, key, version);
  }

  /** Without the payload content, which may be large or private. */
  @Override
  public String toString() {
    return "Reminder["
        + namespace
        + ":"
        + Quoting.quote(key)
        + " v"
        + version
        + " "
        + state
        + " next="
        + nextFireAt
        + " "
        + scheduleText
        + " occurrence="
        + occurrence
        + " payload="
        + payload.length
        + " bytes]";
  }
}
