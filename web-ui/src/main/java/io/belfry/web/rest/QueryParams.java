package io.belfry.web.rest;

import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.InvalidReminderException.Violation;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Query parameters parsed with every malformed one reported at once, each under its parameter name.
 * Absent or empty parameters are {@code null}.
 */
final class QueryParams {

  private final List<Violation> violations = new ArrayList<>();

  /** A text parameter; empty counts as absent. */
  static String text(String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  Instant instant(String name, String value) {
    return parse(
        name,
        value,
        text -> OffsetDateTime.parse(text).toInstant(),
        "must be an ISO 8601 date-time with offset, e.g. 2026-11-21T09:00:00Z");
  }

  Integer integer(String name, String value) {
    return parse(name, value, Integer::valueOf, "must be a whole number");
  }

  <E extends Enum<E>> E enumeration(String name, String value, Class<E> type) {
    String names =
        Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", "));
    return parse(name, value, text -> Enum.valueOf(type, text), "must be one of " + names);
  }

  <T> T parse(String name, String value, Function<String, T> parser, String message) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      return parser.apply(value);
    } catch (RuntimeException e) {
      // whatever the parser throws, the text was not a value of this parameter
      violations.add(new Violation(name, message));
      return null;
    }
  }

  /**
   * @throws InvalidReminderException if any parameter was malformed
   */
  void check() {
    if (!violations.isEmpty()) {
      throw new InvalidReminderException(violations);
    }
  }
}
