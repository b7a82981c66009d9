package io.belfry.reminders.store;

import io.belfry.reminders.model.ReminderRecord;
import java.util.Objects;

/**
 * A record as read from the store together with the exact bytes it was read from. Conditional
 * writes compare those bytes (as {@link CacheValues}, matched by content), so the expected value of
 * a replace is always what was read, never a re-encoding that a newer writer's unknown fields would
 * make differ.
 */
public final class StoredReminder {

  private final ReminderRecord record;
  private final byte[] encoded;

  public StoredReminder(ReminderRecord record, byte[] encoded) {
    this.record = Objects.requireNonNull(record, "record");
    this.encoded = Objects.requireNonNull(encoded, "encoded");
  }

  public ReminderRecord record() {
    return record;
  }

  /** The stored bytes; not copied, callers must not modify them. */
  byte[] encoded() {
    return encoded;
  }

  @Override
  public String toString() {
    return "StoredReminder[" + record + "]";
  }
}
