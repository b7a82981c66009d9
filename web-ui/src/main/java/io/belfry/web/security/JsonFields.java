package io.belfry.web.security;

import io.belfry.reminders.api.InvalidReminderException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.validation.Validator;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The fields of the {@code /users} and {@code /tokens} bodies, read and validated with the same
 * rules: an unknown field, a name that is not a string, roles or namespaces that are not an array
 * of strings, or a time that is not an ISO-8601 instant is a {@code 400} naming the field; a
 * missing field is {@code null}, for Bean Validation to report.
 */
final class JsonFields {

  private JsonFields() {}

  static void onlyKnown(JsonObject json, String... known) {
    List<String> allowed = List.of(known);
    for (String field : json.keySet()) {
      if (!allowed.contains(field)) {
        throw InvalidReminderException.of(field, "is not a known field");
      }
    }
  }

  static String string(JsonObject json, String field) {
    JsonValue given = json.get(field);
    if (given instanceof JsonString text) {
      return text.getString();
    }
    if (given != null && given.getValueType() != JsonValue.ValueType.NULL) {
      throw InvalidReminderException.of(field, "must be a string");
    }
    return null;
  }

  /**
   * Validates a user or token request with Bean Validation.
   *
   * @throws InvalidReminderException naming each field; {@code roles[..].<element>}, Bean
   *     Validation's path of a bad role (or namespace), is reported on {@code roles}
   */
  static void validate(Validator validator, Object request) {
    var violations = validator.validate(request);
    if (!violations.isEmpty()) {
      throw new InvalidReminderException(
          violations.stream()
              .map(
                  v ->
                      new InvalidReminderException.Violation(
                          v.getPropertyPath()
                              .toString()
                              .replaceFirst("^(roles|namespaces)\\[.*$", "$1"),
                          v.getMessage()))
              .toList());
    }
  }

  static Set<String> roles(JsonObject json) {
    return strings(json, "roles", "must be an array of role names");
  }

  static Set<String> namespaces(JsonObject json) {
    return strings(json, "namespaces", "must be an array of namespaces");
  }

  static Instant instant(JsonObject json, String field) {
    String text = string(json, field);
    try {
      return text == null ? null : Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw InvalidReminderException.of(
          field, "must be an ISO-8601 instant, e.g. 2030-01-01T00:00:00Z");
    }
  }

  private static Set<String> strings(JsonObject json, String field, String message) {
    JsonValue list = json.get(field);
    if (list == null || list.getValueType() == JsonValue.ValueType.NULL) {
      return null;
    }
    if (list.getValueType() != JsonValue.ValueType.ARRAY) {
      throw InvalidReminderException.of(field, message);
    }
    Set<String> items = new HashSet<>();
    for (JsonValue item : list.asJsonArray()) {
      if (!(item instanceof JsonString text)) {
        throw InvalidReminderException.of(field, message);
      }
      items.add(text.getString());
    }
    return items;
  }
}
