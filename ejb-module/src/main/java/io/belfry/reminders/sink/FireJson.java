package io.belfry.reminders.sink;

import static io.belfry.reminders.model.JsonFactory.JSON;

import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ReminderRequest;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * A fire as the sinks send it, one JSON object. The payload is rendered as the REST API renders a
 * reminder's: a JSON payload ({@code application/json} or {@code +json}) embedded as JSON, any
 * other as base64 text, an empty one as {@code null}; {@code contentType} says which.
 */
public final class FireJson {

  private FireJson() {}

  public static JsonObject of(ReminderFired fire) {
    JsonObjectBuilder json =
        JSON.createObjectBuilder()
            .add("namespace", fire.getNamespace())
            .add("key", fire.getKey())
            .add("fence", fire.getFence())
            .add("occurrence", fire.getOccurrence())
            .add("attempt", fire.getAttempt())
            .add("dueAt", fire.getDueAt().toString())
            .add("firedAt", fire.getFiredAt().toString())
            .add("contentType", fire.getContentType());
    byte[] payload = fire.getPayload();
    if (payload.length == 0) {
      json.addNull("payload");
    } else if (!embedJson(json, fire.getContentType(), payload)) {
      json.add("payload", Base64.getEncoder().encodeToString(payload));
    }
    return json.build();
  }

  /** The exact bytes that are sent and signed: the object in compact UTF-8 JSON. */
  public static byte[] bytes(ReminderFired fire) {
    return of(fire).toString().getBytes(StandardCharsets.UTF_8);
  }

  private static boolean embedJson(JsonObjectBuilder json, String contentType, byte[] payload) {
    Optional<JsonValue> value = embeddable(contentType, payload);
    value.ifPresent(v -> json.add("payload", v));
    return value.isPresent();
  }

  /**
   * A payload as JSON to embed, if its content type is JSON and the JSON parser can read it and
   * write it back; empty otherwise, and the caller shows its bytes (base64). Set through the Java
   * API or the console, a payload may be JSON that the parser reads but will not write (a number of
   * over 1,100 characters) or nests deeper than it reads (1,000 levels): such a payload must not
   * break a listing or a sink.
   */
  public static Optional<JsonValue> embeddable(String contentType, byte[] payload) {
    if (!ReminderRequest.isJsonContentType(contentType)) {
      return Optional.empty();
    }
    try (var reader = JSON.createReader(new ByteArrayInputStream(payload))) {
      JsonValue value = reader.readValue();
      value.toString(); // writes every number: throws now rather than when the answer is sent
      return Optional.of(value);
    } catch (RuntimeException notRenderable) {
      return Optional.empty();
    }
  }
}
