package io.belfry.reminders.fire;

import java.time.Instant;
import java.util.Objects;

/**
 * One delivered occurrence, as the application receives it. Immutable: the payload is copied in and
 * out. {@code fence} is the version that fired; handlers that must not act twice de-duplicate on
 * (namespace, key, fence).
 */
public record ReminderFire(
    String namespace,
    String key,
    byte[] payload,
    String contentType,
    long fence,
    Instant dueAt,
    Instant firedAt,
    long occurrence,
    int attempt) {

  public ReminderFire {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(dueAt, "dueAt");
    Objects.requireNonNull(firedAt, "firedAt");
    payload = payload == null ? new byte[0] : payload.clone();
  }

  @Override
  public byte[] payload() {
    return payload.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReminderFire f
        && namespace.equals(f.namespace)
        && key.equals(f.key)
        && fence == f.fence
        && occurrence == f.occurrence
        && attempt == f.attempt
        && dueAt.equals(f.dueAt)
        && firedAt.equals(f.firedAt)
        && Objects.equals(contentType, f.contentType)
        && java.util.Arrays.equals(payload, f.payload);
  }

  @Override
  public int hashCode() {
    return Objects.hash(namespace, key, fence, occurrence, attempt);
  }

  @Override
  public String toString() {
    return "ReminderFire["
        + namespace
        + ":"
        + key
        + ", fence="
        + fence
        + ", occurrence="
        + occurrence
        + ", dueAt="
        + dueAt
        + ", firedAt="
        + firedAt
        + ", attempt="
        + attempt
        + ", payload="
        + payload.length
        + " bytes]";
  }
}
