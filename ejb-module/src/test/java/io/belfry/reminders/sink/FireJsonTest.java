package io.belfry.reminders.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.ReminderFired;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * A JSON payload is embedded as JSON; one the JSON parser cannot read or write back (stored through
 * the Java API, which does not parse it) is sent as its bytes in base64, never an exception that
 * would fail every delivery (and break the REST listing, which renders payloads the same way).
 */
class FireJsonTest {

  @Test
  void jsonPayload_embeddedAsJson() {
    JsonObject sent = sent("application/json", "{\"order\": 42}");
    assertThat(sent.getJsonObject("payload").getInt("order")).isEqualTo(42);
  }

  @Test
  void numberTooLongToWriteBack_sentAsBase64() {
    String payload = "{\"n\": " + "9".repeat(5_000) + "}";
    JsonObject sent = sent("application/json", payload);
    assertThat(sent.getString("payload"))
        .isEqualTo(Base64.getEncoder().encodeToString(payload.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void nestedDeeperThanTheParserReads_sentAsBase64() {
    String payload = "[".repeat(5_000) + "]".repeat(5_000);
    assertThat(sent("application/json", payload).getString("payload"))
        .isEqualTo(Base64.getEncoder().encodeToString(payload.getBytes(StandardCharsets.UTF_8)));
  }

  private static JsonObject sent(String contentType, String payload) {
    ReminderFired fire =
        new ReminderFired(
            "ns",
            "k",
            payload.getBytes(StandardCharsets.UTF_8),
            contentType,
            7,
            Instant.parse("2026-11-25T09:00:00Z"),
            Instant.parse("2026-11-25T09:00:00.004Z"),
            1,
            1);
    String bytes = new String(FireJson.bytes(fire), StandardCharsets.UTF_8);
    try (var reader = Json.createReader(new StringReader(bytes))) {
      return reader.readObject();
    }
  }
}
