package io.belfry.reminders.api;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * The CDI event an application observes when one of its reminders fires, qualified with the
 * reminder's {@link Namespace}. Final, immutable and non-generic, because CDI does not allow
 * parametrized event types and observers may run concurrently on other threads.
 *
 * <p>Use {@link #getFence()} to de-duplicate side effects: it is the version of the reminder
 * occurrence that fired, identical on every node and strictly increasing per key, so a handler that
 * records the highest fence it applied per key can ignore anything not above it.
 */
public final class ReminderFired {

  private final String namespace;
  private final String key;
  private final byte[] payload;
  private final String contentType;
  private final long fence;
  private final Instant dueAt;
  private final Instant firedAt;
  private final long occurrence;
  private final int attempt;

  /**
   * @param payload copied; {@code null} is taken as empty
   * @param occurrence position on the reminder's timeline, from 1
   * @param attempt delivery attempt, from 1
   */
  public ReminderFired(
      String namespace,
      String key,
      byte[] payload,
      String contentType,
      long fence,
      Instant dueAt,
      Instant firedAt,
      long occurrence,
      int attempt) {
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.key = Objects.requireNonNull(key, "key");
    this.payload = payload == null ? new byte[0] : payload.clone();
    this.contentType = Objects.requireNonNull(contentType, "contentType");
    this.fence = fence;
    this.dueAt = Objects.requireNonNull(dueAt, "dueAt");
    this.firedAt = Objects.requireNonNull(firedAt, "firedAt");
    if (occurrence < 1) {
      throw new IllegalArgumentException("occurrence counts from 1, was " + occurrence);
    }
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt counts from 1, was " + attempt);
    }
    this.occurrence = occurrence;
    this.attempt = attempt;
  }

  public String getNamespace() {
    return namespace;
  }

  public String getKey() {
    return key;
  }

  /** A copy of the payload bytes; never {@code null}. */
  public byte[] getPayload() {
    return payload.clone();
  }

  /** The payload decoded as UTF-8, e.g. for {@code application/json} or {@code text/plain}. */
  public String payloadAsString() {
    return new String(payload, StandardCharsets.UTF_8);
  }

  public String getContentType() {
    return contentType;
  }

  /** The version of the fired occurrence, for de-duplication (see the class comment). */
  public long getFence() {
    return fence;
  }

  /** When the occurrence was scheduled. */
  public Instant getDueAt() {
    return dueAt;
  }

  /** When the owning node fired it. */
  public Instant getFiredAt() {
    return firedAt;
  }

  /** Position of this occurrence on the reminder's timeline, from 1, skipped positions counted. */
  public long getOccurrence() {
    return occurrence;
  }

  /** Delivery attempt, from 1; above 1 only for at-least-once delivery. */
  public int getAttempt() {
    return attempt;
  }

  /** How late the fire was: {@code firedAt - dueAt} (negative if a skewed clock fired early). */
  public Duration latency() {
    return Duration.between(dueAt, firedAt);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ReminderFired other)) {
      return false;
    }
    return fence == other.fence
        && occurrence == other.occurrence
        && attempt == other.attempt
        && namespace.equals(other.namespace)
        && key.equals(other.key)
        && Arrays.equals(payload, other.payload)
        && contentType.equals(other.contentType)
        && dueAt.equals(other.dueAt)
        && firedAt.equals(other.firedAt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(namespace, key, fence, occurrence, attempt);
  }

  /** Without the payload content, which may be large or private. */
  @Override
  public String toString() {
    return "ReminderFired["
        + namespace
        + ":"
        + Quoting.quote(key)
        + " fence="
        + fence
        + " occurrence="
        + occurrence
        + " attempt="
        + attempt
        + " dueAt="
        + dueAt
        + " firedAt="
        + firedAt
        + " payload="
        + payload.length
        + " bytes "
        + contentType
        + "]";
  }
}
