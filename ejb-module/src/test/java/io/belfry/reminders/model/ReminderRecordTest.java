package io.belfry.reminders.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.Schedule;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReminderRecordTest {

  static ReminderRecord sample(byte[] payload) {
    return new ReminderRecord(
        new ReminderId("app", "order-42"),
        HybridLogicalClock.pack(1_795_000_000_000L, 3),
        ReminderState.PENDING,
        new Schedule.Every(Duration.ofMinutes(15)),
        1_795_000_900_000L,
        1,
        null,
        10,
        MisfirePolicy.FIRE_ONCE,
        null,
        DeliveryMode.AT_MOST_ONCE,
        payload,
        "application/json",
        1_795_000_000_000L,
        1_795_000_000_000L);
  }

  @Test
  void equals_samePayloadContent_equalWithSameHashCode() {
    ReminderRecord a = sample(new byte[] {1, 2, 3});
    ReminderRecord b = sample(new byte[] {1, 2, 3});

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(sample(new byte[] {1, 2, 4}));
  }

  @Test
  void payload_mutatedByCaller_recordUnchanged() {
    byte[] payload = {1, 2, 3};
    ReminderRecord record = sample(payload);

    payload[0] = 9;
    record.payload()[1] = 9;

    assertThat(record.payload()).containsExactly(1, 2, 3);
  }

  @Test
  void constructor_nullPayload_becomesEmpty() {
    assertThat(sample(null).payload()).isEmpty();
    assertThat(sample(null)).isEqualTo(sample(new byte[0]));
  }

  @Test
  void tombstone_fired_keepsIdVersionAndDropsPayload() {
    ReminderRecord live = sample(new byte[] {1, 2, 3});

    ReminderRecord tombstone = live.tombstone(ReminderState.FIRED, 1_795_000_901_000L);

    assertThat(tombstone.id()).isEqualTo(live.id());
    assertThat(tombstone.version()).isEqualTo(live.version());
    assertThat(tombstone.state()).isEqualTo(ReminderState.FIRED);
    assertThat(tombstone.isTombstone()).isTrue();
    assertThat(tombstone.updatedAtMillis()).isEqualTo(1_795_000_901_000L);
    assertThat(tombstone.payload()).isEmpty();
    assertThat(tombstone.contentType()).isNull();
  }

  @Test
  void tombstone_pendingState_throws() {
    assertThatThrownBy(() -> sample(null).tombstone(ReminderState.PENDING, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void withNext_newOccurrence_replacesVersionDueAndOccurrence() {
    ReminderRecord live = sample(new byte[] {7});

    ReminderRecord next =
        live.withNext(live.version() + 1, 1_795_001_800_000L, 2, 1_795_000_901_000L);

    assertThat(next.version()).isEqualTo(live.version() + 1);
    assertThat(next.nextDueMillis()).isEqualTo(1_795_001_800_000L);
    assertThat(next.occurrence()).isEqualTo(2);
    assertThat(next.updatedAtMillis()).isEqualTo(1_795_000_901_000L);
    assertThat(next.payload()).containsExactly(7);
    assertThat(next.createdAtMillis()).isEqualTo(live.createdAtMillis());
  }

  @Test
  void isTombstone_eachState_onlyPendingIsLive() {
    assertThat(ReminderState.PENDING.isTombstone()).isFalse();
    assertThat(ReminderState.FIRED.isTombstone()).isTrue();
    assertThat(ReminderState.CANCELLED.isTombstone()).isTrue();
    assertThat(ReminderState.SKIPPED.isTombstone()).isTrue();
  }

  @Test
  void constructor_invalidOccurrenceOrVersion_throws() {
    ReminderRecord r = sample(null);
    assertThatThrownBy(() -> r.withNext(r.version(), 0, 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> r.withNext(0, 0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void toString_payload_showsSizeNotContent() {
    assertThat(sample("secret".getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString())
        .contains("6 bytes")
        .doesNotContain("secret");
  }
}
