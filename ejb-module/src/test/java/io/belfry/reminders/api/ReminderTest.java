package io.belfry.reminders.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReminderTest {

  private static Reminder reminder(byte[] payload) {
    Instant t = Instant.parse("2026-03-10T12:00:00Z");
    return new Reminder(
        "shop",
        "cart-42",
        7L,
        ReminderStatus.PENDING,
        t,
        new Schedule.Once(),
        "once",
        null,
        null,
        1L,
        MisfirePolicy.FIRE_ONCE,
        null,
        DeliveryMode.AT_MOST_ONCE,
        payload,
        "application/octet-stream",
        t,
        t,
        0,
        null);
  }

  @Test
  void payload_mutatedAfterConstructionOrAccess_reminderUnchanged() {
    byte[] bytes = {1, 2};
    Reminder reminder = reminder(bytes);
    bytes[0] = 9;
    reminder.payload()[1] = 9;
    assertThat(reminder.payload()).containsExactly(1, 2);
  }

  @Test
  void equals_samePayloadContent_equal() {
    assertThat(reminder(new byte[] {1})).isEqualTo(reminder(new byte[] {1}));
    assertThat(reminder(new byte[] {1})).isNotEqualTo(reminder(new byte[] {2}));
  }

  @Test
  void payload_null_isEmpty() {
    assertThat(reminder(null).payload()).isEmpty();
  }
}
