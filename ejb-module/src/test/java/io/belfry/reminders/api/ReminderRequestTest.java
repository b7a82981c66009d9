package io.belfry.reminders.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class ReminderRequestTest {

  private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");
  private static final Instant AT = Instant.parse("2026-03-10T13:00:00Z");

  @Test
  void newRequest_noArguments_hasDocumentedDefaults() {
    ReminderRequest request = new ReminderRequest();
    assertThat(request.getZone()).isEqualTo("UTC");
    assertThat(request.getMisfire()).isEqualTo(MisfirePolicy.FIRE_ONCE);
    assertThat(request.getDelivery()).isEqualTo(DeliveryMode.AT_MOST_ONCE);
    assertThat(request.getContentType()).isEqualTo("application/octet-stream");
    assertThat(request.getNamespace()).isNull();
    assertThat(request.getPayload()).isNull();
  }

  @Test
  void builder_everyField_roundTripsThroughGetters() {
    byte[] payload = {1, 2, 3};
    ReminderRequest request =
        ReminderRequest.key("cart-42")
            .namespace("shop")
            .at(AT)
            .every("15m")
            .until(AT.plus(Duration.ofDays(1)))
            .maxOccurrences(7)
            .skipIfLaterThan(Duration.ofMinutes(5))
            .delivery(DeliveryMode.AT_MOST_ONCE)
            .payload(payload, "application/x-cart")
            .build();

    assertThat(request.getKey()).isEqualTo("cart-42");
    assertThat(request.getNamespace()).isEqualTo("shop");
    assertThat(request.getFireAt()).isEqualTo(AT);
    assertThat(request.getEvery()).isEqualTo("15m");
    assertThat(request.getUntil()).isEqualTo(AT.plus(Duration.ofDays(1)));
    assertThat(request.getMaxOccurrences()).isEqualTo(7);
    assertThat(request.getMisfire()).isEqualTo(MisfirePolicy.SKIP);
    assertThat(request.getDeadline()).isEqualTo(Duration.ofMinutes(5));
    assertThat(request.getPayload()).containsExactly(1, 2, 3);
    assertThat(request.getContentType()).isEqualTo("application/x-cart");
  }

  @Test
  void toBuilder_unchanged_buildsAnEqualCopy() {
    ReminderRequest original =
        ReminderRequest.key("k")
            .cron("0 9 * * MON-FRI", ZoneId.of("Europe/Paris"))
            .payloadJson("{}")
            .build();
    ReminderRequest copy = original.toBuilder().build();
    assertThat(copy).isEqualTo(original).isNotSameAs(original).hasSameHashCodeAs(original);
  }

  @Test
  void toBuilder_changed_leavesOriginalAlone() {
    ReminderRequest original = ReminderRequest.key("k").at(AT).build();
    ReminderRequest changed =
        original.toBuilder().key("other").after(Duration.ofMinutes(1)).build();
    assertThat(original.getKey()).isEqualTo("k");
    assertThat(original.getDelay()).isNull();
    assertThat(changed.getKey()).isEqualTo("other");
  }

  @Test
  void builder_reusedAsTemplate_buildsIndependentRequests() {
    ReminderRequest.Builder template =
        ReminderRequest.builder().namespace("shop").after(Duration.ofHours(1));
    ReminderRequest first = template.key("a").build();
    ReminderRequest second = template.key("b").build();
    assertThat(first.getKey()).isEqualTo("a");
    assertThat(second.getKey()).isEqualTo("b");
  }

  @Test
  void payload_mutatedAfterSetOrGet_doesNotChangeRequest() {
    byte[] bytes = {1, 2, 3};
    ReminderRequest request = ReminderRequest.key("k").payload(bytes).build();
    bytes[0] = 9;
    request.getPayload()[1] = 9;
    assertThat(request.getPayload()).containsExactly(1, 2, 3);
  }

  @Test
  void payloadJson_text_setsUtf8BytesAndJsonContentType() {
    ReminderRequest request = ReminderRequest.key("k").payloadJson("{\"name\":\"Zoë\"}").build();
    assertThat(new String(request.getPayload(), StandardCharsets.UTF_8))
        .isEqualTo("{\"name\":\"Zoë\"}");
    assertThat(request.getContentType()).isEqualTo("application/json");
    assertThat(request.hasJsonContentType()).isTrue();
  }

  @Test
  void payloadText_text_setsPlainTextContentType() {
    ReminderRequest request = ReminderRequest.key("k").payloadText("hi").build();
    assertThat(request.getContentType()).isEqualTo("text/plain; charset=UTF-8");
    assertThat(request.hasJsonContentType()).isFalse();
  }

  @Test
  void hasJsonContentType_suffixAndParameters_recognised() {
    ReminderRequest request = new ReminderRequest();
    request.setContentType("Application/Problem+JSON; charset=utf-8");
    assertThat(request.hasJsonContentType()).isTrue();
    request.setContentType("text/json-ish");
    assertThat(request.hasJsonContentType()).isFalse();
  }

  @Test
  void schedule_noRecurrence_isOnce() {
    assertThat(ReminderRequest.key("k").at(AT).build().schedule()).isEqualTo(new Schedule.Once());
  }

  @Test
  void schedule_every_isEveryOfParsedInterval() {
    assertThat(ReminderRequest.key("k").at(AT).every("90s").build().schedule())
        .isEqualTo(new Schedule.Every(Duration.ofSeconds(90)));
  }

  @Test
  void schedule_everyDuration_keptAsIsoText() {
    ReminderRequest request = ReminderRequest.key("k").at(AT).every(Duration.ofMinutes(15)).build();
    assertThat(request.getEvery()).isEqualTo("PT15M");
    assertThat(request.schedule()).isEqualTo(new Schedule.Every(Duration.ofMinutes(15)));
  }

  @Test
  void schedule_cronWithZone_isCronInThatZone() {
    assertThat(ReminderRequest.key("k").cron("0 9 * * MON-FRI", "Europe/Paris").build().schedule())
        .isEqualTo(new Schedule.Cron("0 9 * * MON-FRI", ZoneId.of("Europe/Paris")));
  }

  @Test
  void schedule_cronWithoutZone_readsUtc() {
    assertThat(ReminderRequest.key("k").cron("0 9 * * *").build().schedule())
        .isEqualTo(new Schedule.Cron("0 9 * * *", ZoneId.of("UTC")));
  }

  @Test
  void schedule_repeat_isRepeat() {
    assertThat(ReminderRequest.key("k").repeat("R5/2026-11-21T09:00:00Z/PT1H").build().schedule())
        .isEqualTo(
            new Schedule.Repeat(Instant.parse("2026-11-21T09:00:00Z"), Duration.ofHours(1), 5));
  }

  @Test
  void schedule_unparseableEvery_throwsIllegalArgument() {
    ReminderRequest request = ReminderRequest.key("k").at(AT).every("soon").build();
    assertThatThrownBy(request::schedule)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("soon");
  }

  @Test
  void firstFireAt_fireAt_isFireAt() {
    assertThat(ReminderRequest.key("k").at(AT).build().firstFireAt(NOW)).isEqualTo(AT);
  }

  @Test
  void firstFireAt_delay_isNowPlusDelay() {
    assertThat(ReminderRequest.key("k").after(Duration.ofMinutes(5)).build().firstFireAt(NOW))
        .isEqualTo(NOW.plus(Duration.ofMinutes(5)));
  }

  @Test
  void firstFireAt_repeat_isRepeatStart() {
    assertThat(
            ReminderRequest.key("k").repeat("R/2026-11-21T09:00:00Z/PT1H").build().firstFireAt(NOW))
        .isEqualTo(Instant.parse("2026-11-21T09:00:00Z"));
  }

  @Test
  void firstFireAt_cronAlone_isNullMeaningFirstMatch() {
    assertThat(ReminderRequest.key("k").cron("0 9 * * *").build().firstFireAt(NOW)).isNull();
  }

  @Test
  void scheduleText_eachKind_asGiven() {
    assertThat(ReminderRequest.key("k").at(AT).build().scheduleText()).isEqualTo("once");
    assertThat(ReminderRequest.key("k").at(AT).every("15m").build().scheduleText())
        .isEqualTo("every 15m");
    assertThat(
            ReminderRequest.key("k").cron("0 9 * * MON-FRI", "Europe/Paris").build().scheduleText())
        .isEqualTo("cron 0 9 * * MON-FRI Europe/Paris");
    assertThat(
            ReminderRequest.key("k").repeat("R5/2026-11-21T09:00:00Z/PT1H").build().scheduleText())
        .isEqualTo("R5/2026-11-21T09:00:00Z/PT1H");
  }

  @Test
  void setters_null_restoreDefaults() {
    ReminderRequest request =
        ReminderRequest.key("k").cron("0 9 * * *", "Europe/Paris").payloadJson("{}").build();
    request.setZone(null);
    request.setContentType(null);
    assertThat(request.getZone()).isEqualTo("UTC");
    assertThat(request.getContentType()).isEqualTo("application/octet-stream");
  }

  @Test
  void toString_controlCharactersAndPayload_escapedAndNotShown() {
    String text = ReminderRequest.key("evil\nkey").payloadText("secret").build().toString();
    assertThat(text)
        .contains("evil\\u000akey")
        .doesNotContain("\n")
        .doesNotContain("secret")
        .contains("6 bytes");
  }
}
