package io.belfry.web.security;

import io.belfry.reminders.api.InvalidReminderException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.validation.Validator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The fields of the {@code /users} and {@code /tokens} bodies, read and validated with the same
 * rules: an unknown field, a name that is not a string or roles that are not an array of strings is
 * a {@code 400} naming the field; a missing field is {@code null}, for Bean Validation to report.
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
   *     Validation's path of a bad role, is reported on {@code roles}
   */
  static void validate(Validator validator, Object request) {
    var violations = validator.validate(request);
    if (!violations.isEmpty()) {
      throw new InvalidReminderException(
          violations.stream()
              .map(
                  v ->
                      new InvalidReminderException.Violation(
                          v.getPropertyPath().toString().replaceFirst("^roles\\[.*$", "roles"),
                          v.getMessage()))
              .toList());
    }
  }

  static Set<String> roles(JsonObject json) {
    JsonValue list = json.get("roles");
    if (list == null || list.getValueType() == JsonValue.ValueType.NULL) {
      return null;
    }
    if (list.getValueType() != JsonValue.ValueType.ARRAY) {
      throw InvalidReminderException.of("roles", "must be an array of role names");
    }
    Set<String> roles = new HashSet<>();
    for (JsonValue role : list.asJsonArray()) {
      if (!(role instanceof JsonString text)) {
        throw InvalidReminderException.of("roles", "must be an array of role names");
      }
      roles.add(text.getString());
    }
    return roles;
  }
}
