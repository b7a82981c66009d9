package io.belfry.reminders.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ReminderFiredTest {

  private static final Instant DUE = Instant.parse("2026-03-10T12:00:00Z");
  private static final Instant FIRED = DUE.plusMillis(7);

  private static ReminderFired fired(byte[] payload) {
    return new ReminderFired("shop", "cart-42", payload, "application/json", 42L, DUE, FIRED, 1, 1);
  }

  @Test
  void payload_mutatedAfterConstructionOrGet_eventUnchanged() {
    byte[] bytes = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
    ReminderFired event = fired(bytes);
    bytes[0] = 'X';
    event.getPayload()[1] = 'X';
    assertThat(event.payloadAsString()).isEqualTo("{\"a\":1}");
  }

  @Test
  void class_isFinalWithOnlyFinalFields() {
    assertThat(Modifier.isFinal(ReminderFired.class.getModifiers())).isTrue();
    assertThat(ReminderFired.class.getTypeParameters()).isEmpty();
    assertThat(Arrays.stream(ReminderFired.class.getDeclaredFields()).map(Field::getModifiers))
        .allMatch(Modifier::isFinal);
  }

  @Test
  void latency_firedAfterDue_isDifference() {
    assertThat(fired(null).latency()).isEqualTo(Duration.ofMillis(7));
  }

  @Test
  void getPayload_nullPayload_isEmpty() {
    assertThat(fired(null).getPayload()).isEmpty();
    assertThat(fired(null).payloadAsString()).isEmpty();
  }

  @Test
  void getters_constructed_returnArguments() {
    ReminderFired event =
        new ReminderFired("shop", "k", new byte[0], "text/plain", 9L, DUE, FIRED, 3, 2);
    assertThat(event.getNamespace()).isEqualTo("shop");
    assertThat(event.getKey()).isEqualTo("k");
    assertThat(event.getContentType()).isEqualTo("text/plain");
    assertThat(event.getFence()).isEqualTo(9L);
    assertThat(event.getDueAt()).isEqualTo(DUE);
    assertThat(event.getFiredAt()).isEqualTo(FIRED);
    assertThat(event.getOccurrence()).isEqualTo(3);
    assertThat(event.getAttempt()).isEqualTo(2);
  }

  @Test
  void constructor_occurrenceOrAttemptBelowOne_rejected() {
    assertThatThrownBy(() -> new ReminderFired("n", "k", null, "t", 1, DUE, FIRED, 0, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ReminderFired("n", "k", null, "t", 1, DUE, FIRED, 1, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void equals_samePayloadContent_equal() {
    assertThat(fired(new byte[] {1}))
        .isEqualTo(fired(new byte[] {1}))
        .isNotEqualTo(fired(new byte[] {2}));
  }

  @Test
  void toString_payload_notShown() {
    assertThat(fired("secret".getBytes(StandardCharsets.UTF_8)).toString())
        .doesNotContain("secret")
        .contains("fence=42");
  }
}
