package io.belfry.reminders.api;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** REST binds its JSON body straight onto ReminderRequest; these bodies are shaped as issue 5's. */
class ReminderRequestJsonbTest {

  private static Jsonb jsonb;

  @BeforeAll
  static void createJsonb() {
    jsonb = JsonbBuilder.create();
  }

  @AfterAll
  static void closeJsonb() throws Exception {
    jsonb.close();
  }

  @Test
  void fromJson_fullRestBody_bindsEveryField() {
    String body =
        """
        {"fireAt": "2026-11-21T09:00:00Z", "every": "15m", "until": "2026-12-01T00:00:00Z",
         "maxOccurrences": 5, "misfire": "SKIP", "deadline": "PT5M", "delivery": "AT_MOST_ONCE",
         "payload": {"cart": 42, "items": ["a", "b"]}}
        """;
    ReminderRequest request = jsonb.fromJson(body, ReminderRequest.class);

    assertThat(request.getFireAt()).isEqualTo(Instant.parse("2026-11-21T09:00:00Z"));
    assertThat(request.getEvery()).isEqualTo("15m");
    assertThat(request.getUntil()).isEqualTo(Instant.parse("2026-12-01T00:00:00Z"));
    assertThat(request.getMaxOccurrences()).isEqualTo(5);
    assertThat(request.getMisfire()).isEqualTo(MisfirePolicy.SKIP);
    assertThat(request.getDeadline()).isEqualTo(Duration.ofMinutes(5));
    assertThat(request.getDelivery()).isEqualTo(DeliveryMode.AT_MOST_ONCE);
    assertThat(new String(request.getPayload(), StandardCharsets.UTF_8))
        .isEqualTo("{\"cart\":42,\"items\":[\"a\",\"b\"]}");
    assertThat(request.getContentType()).isEqualTo("application/json");
  }

  @Test
  void fromJson_delayCronAndZone_bindDurationAndStrings() {
    ReminderRequest request =
        jsonb.fromJson(
            "{\"delay\": \"PT10M\", \"cron\": \"0 9 * * MON-FRI\", \"zone\": \"Europe/Paris\"}",
            ReminderRequest.class);
    assertThat(request.getDelay()).isEqualTo(Duration.ofMinutes(10));
    assertThat(request.getCron()).isEqualTo("0 9 * * MON-FRI");
    assertThat(request.getZone()).isEqualTo("Europe/Paris");
  }

  @Test
  void fromJson_repeatAlone_keepsDefaults() {
    ReminderRequest request =
        jsonb.fromJson("{\"repeat\": \"R5/2026-11-21T09:00:00Z/PT1H\"}", ReminderRequest.class);
    assertThat(request.getRepeat()).isEqualTo("R5/2026-11-21T09:00:00Z/PT1H");
    assertThat(request.getMisfire()).isEqualTo(MisfirePolicy.FIRE_ONCE);
    assertThat(request.getZone()).isEqualTo("UTC");
    assertThat(request.getPayload()).isNull();
  }

  @Test
  void fromJson_scalarPayload_storedAsJsonText() {
    ReminderRequest request =
        jsonb.fromJson("{\"delay\": \"PT1M\", \"payload\": \"hello\"}", ReminderRequest.class);
    assertThat(new String(request.getPayload(), StandardCharsets.UTF_8)).isEqualTo("\"hello\"");
    assertThat(request.getContentType()).isEqualTo("application/json");
  }

  @Test
  void fromJson_nullMisfire_restoresDefault() {
    ReminderRequest request =
        jsonb.fromJson("{\"delay\": \"PT1M\", \"misfire\": null}", ReminderRequest.class);
    assertThat(request.getMisfire()).isEqualTo(MisfirePolicy.FIRE_ONCE);
  }

  @Test
  void toJsonThenFromJson_jsonPayloadRequest_roundTrips() {
    ReminderRequest original =
        ReminderRequest.key("cart-42")
            .namespace("shop")
            .at(Instant.parse("2026-11-21T09:00:00Z"))
            .every("PT15M")
            .maxOccurrences(3)
            .payloadJson("{\"cart\":42}")
            .build();
    String json = jsonb.toJson(original);
    assertThat(json).contains("\"payload\":{\"cart\":42}").doesNotContain("payloadJsonValue");
    assertThat(jsonb.fromJson(json, ReminderRequest.class)).isEqualTo(original);
  }
}
