package io.belfry.web.rest.json;

import static io.belfry.reminders.model.JsonFactory.JSON;

import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.InvalidReminderException.Violation;
import io.belfry.reminders.sink.SinkDirectory.StoredSink;
import io.belfry.reminders.sink.SinkSettings;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A namespace's sink in the API: the body of {@code PUT /namespaces/{namespace}/sink} ({@code
 * webhookUrl}, {@code secret}, {@code timeout}, {@code jmsUrl}, {@code jmsDestination}, {@code
 * jmsUser}, {@code jmsPassword}) and the representation {@code GET} answers, which never contains
 * the secret or the password, only whether one is set ({@code hasSecret}, {@code hasJmsPassword}).
 * As with reminders, an unknown field or a value of the wrong JSON type is reported on its field,
 * and what the values mean is checked afterwards by the constraints of {@link SinkSettings}.
 */
public final class SinkJson {

  static final Set<String> FIELDS =
      Set.of(
          "webhookUrl", "secret", "timeout", "jmsUrl", "jmsDestination", "jmsUser", "jmsPassword");

  private SinkJson() {}

  public static JsonObject of(StoredSink sink) {
    SinkSettings s = sink.settings();
    JsonObjectBuilder json = JSON.createObjectBuilder().add("namespace", sink.namespace());
    nullable(json, "webhookUrl", s.webhookUrl());
    json.add("hasSecret", s.secret() != null).add("timeout", s.timeout().toString());
    nullable(json, "jmsUrl", s.jmsUrl());
    nullable(json, "jmsDestination", s.jmsDestination());
    nullable(json, "jmsUser", s.jmsUser());
    json.add("hasJmsPassword", s.jmsPassword() != null);
    ReminderJson.instant(json, "updatedAt", sink.updatedAt());
    nullable(json, "updatedBy", sink.updatedBy());
    return json.build();
  }

  private static void nullable(JsonObjectBuilder json, String field, String value) {
    if (value == null) {
      json.addNull(field);
    } else {
      json.add(field, value);
    }
  }

  /**
   * The settings {@code body} describes; a missing {@code timeout} is {@link
   * SinkSettings#DEFAULT_TIMEOUT}, a missing {@code secret} or {@code jmsPassword} is {@code null}
   * (keep the stored one), any other missing field is {@code null} (none).
   *
   * @throws InvalidReminderException on unknown fields and fields of the wrong type or format
   */
  public static SinkSettings read(JsonObject body) {
    List<Violation> violations = new ArrayList<>();
    for (String field : body.keySet()) {
      if (!FIELDS.contains(field)) {
        violations.add(
            new Violation(
                ReminderBody.printable(field),
                field.equals("namespace")
                    ? "is taken from the path, not the body"
                    : "is not a known field"));
      }
    }
    String url = string(body, "webhookUrl", violations);
    String secret = string(body, "secret", violations);
    Duration timeout = SinkSettings.DEFAULT_TIMEOUT;
    String text = string(body, "timeout", violations);
    if (text != null) {
      try {
        timeout = Duration.parse(text);
      } catch (DateTimeParseException e) {
        violations.add(new Violation("timeout", "must be an ISO 8601 duration, e.g. PT5S"));
      }
    }
    String jmsUrl = string(body, "jmsUrl", violations);
    String jmsDestination = string(body, "jmsDestination", violations);
    String jmsUser = string(body, "jmsUser", violations);
    String jmsPassword = string(body, "jmsPassword", violations);
    if (!violations.isEmpty()) {
      throw new InvalidReminderException(violations);
    }
    return new SinkSettings(url, secret, timeout, jmsUrl, jmsDestination, jmsUser, jmsPassword);
  }

  private static String string(JsonObject body, String field, List<Violation> violations) {
    JsonValue value = body.get(field);
    if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
      return null;
    }
    if (value instanceof JsonString text) {
      return text.getString();
    }
    violations.add(new Violation(field, "must be a string"));
    return null;
  }
}
