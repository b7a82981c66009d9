package io.belfry.web.rest.json;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.InvalidReminderException.Violation;
import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.ReminderRequest;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The JSON body of {@code PUT /reminders/{namespace}/{key}} read onto a {@link ReminderRequest},
 * field by field, so that a value of the wrong JSON type or format is reported on its field (with
 * every other such field), never as a generic parse error. Unknown fields are refused rather than
 * ignored: a misspelt {@code "untill"} must not silently set a reminder that never ends. A JSON
 * {@code null} means "not given". What the values mean is checked afterwards by Bean Validation,
 * the same constraints as the Java API's.
 */
public final class ReminderBody {

  static final Set<String> FIELDS =
      Set.of(
          "fireAt",
          "delay",
          "every",
          "cron",
          "zone",
          "repeat",
          "until",
          "maxOccurrences",
          "misfire",
          "deadline",
          "delivery",
          "payload");

  private final JsonObject json;
  private final List<Violation> violations = new ArrayList<>();

  private ReminderBody(JsonObject json) {
    this.json = json;
  }

  /**
   * The request for {@code namespace}/{@code key} that {@code body} describes.
   *
   * @throws InvalidReminderException if the body has unknown fields, or a field of the wrong type
   *     or format; each violation names its field
   */
  public static ReminderRequest read(String namespace, String key, JsonObject body) {
    ReminderRequest request = new ReminderBody(body).bind();
    request.setNamespace(namespace);
    request.setKey(key);
    return request;
  }

  private ReminderRequest bind() {
    for (String field : json.keySet()) {
      if (!FIELDS.contains(field)) {
        violations.add(
            new Violation(
                printable(field),
                field.equals("key") || field.equals("namespace")
                    ? "is taken from the path, not the body"
                    : "is not a known field"));
      }
    }
    ReminderRequest request = new ReminderRequest();
    instant("fireAt", request::setFireAt);
    duration("delay", request::setDelay);
    text("every", request::setEvery, true);
    text("cron", request::setCron, false);
    text("zone", request::setZone, false);
    text("repeat", request::setRepeat, false);
    instant("until", request::setUntil);
    integer("maxOccurrences", request::setMaxOccurrences);
    enumeration("misfire", MisfirePolicy.class, request::setMisfire);
    duration("deadline", request::setDeadline);
    enumeration("delivery", DeliveryMode.class, request::setDelivery);
    JsonValue payload = json.get("payload");
    if (payload != null && payload.getValueType() != JsonValue.ValueType.NULL) {
      try {
        request.setPayloadJsonValue(payload);
      } catch (UnsupportedOperationException | ArithmeticException | NumberFormatException e) {
        // a number the parser read but will not write back (over 1,100 characters)
        violations.add(
            new Violation("payload", "holds a number too long to store: " + e.getMessage()));
      }
    }
    if (!violations.isEmpty()) {
      throw new InvalidReminderException(violations);
    }
    return request;
  }

  private JsonValue given(String field) {
    JsonValue value = json.get(field);
    return value == null || value.getValueType() == JsonValue.ValueType.NULL ? null : value;
  }

  private String string(String field, String expected) {
    JsonValue value = given(field);
    if (value == null) {
      return null;
    }
    if (value instanceof JsonString text) {
      return text.getString();
    }
    violations.add(new Violation(field, "must be " + expected));
    return null;
  }

  private void text(String field, Consumer<String> setter, boolean numberAllowed) {
    JsonValue value = given(field);
    if (numberAllowed && value instanceof JsonNumber number) {
      // "every": 900000 is milliseconds, as the Java API's every("900000")
      BigInteger whole = wholeNumber(number);
      if (whole != null) {
        setter.accept(whole.toString());
        return;
      }
    }
    String text =
        string(field, numberAllowed ? "a string or a whole number of milliseconds" : "a string");
    if (text != null) {
      setter.accept(text);
    }
  }

  private void instant(String field, Consumer<Instant> setter) {
    String text = string(field, "an ISO 8601 date-time string, e.g. 2026-11-21T09:00:00Z");
    if (text == null) {
      return;
    }
    try {
      setter.accept(OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException e) {
      violations.add(
          new Violation(
              field, "must be an ISO 8601 date-time with offset, e.g. 2026-11-21T09:00:00Z"));
    }
  }

  private void duration(String field, Consumer<Duration> setter) {
    String text = string(field, "an ISO 8601 duration string, e.g. PT15M");
    if (text == null) {
      return;
    }
    try {
      setter.accept(Duration.parse(text));
    } catch (DateTimeParseException e) {
      violations.add(new Violation(field, "must be an ISO 8601 duration, e.g. PT15M"));
    }
  }

  private void integer(String field, Consumer<Integer> setter) {
    JsonValue value = given(field);
    if (value == null) {
      return;
    }
    if (value instanceof JsonNumber number) {
      BigInteger whole = wholeNumber(number);
      if (whole != null && whole.bitLength() < Integer.SIZE) {
        setter.accept(whole.intValue());
        return;
      }
    }
    violations.add(new Violation(field, "must be a whole number up to " + Integer.MAX_VALUE));
  }

  private <E extends Enum<E>> void enumeration(String field, Class<E> type, Consumer<E> setter) {
    String names =
        Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", "));
    String text = string(field, "one of " + names);
    if (text == null) {
      return;
    }
    try {
      setter.accept(Enum.valueOf(type, text));
    } catch (IllegalArgumentException e) {
      violations.add(new Violation(field, "must be one of " + names));
    }
  }

  // A field name echoed in an error must not carry control characters or run on forever.
  /**
   * The number if it is whole and the parser converts it; {@code null} otherwise. Parsson refuses
   * to convert literals of more than 1,100 characters or with huge exponents
   * (UnsupportedOperationException), which must be the client's 400, not a 500.
   */
  private static BigInteger wholeNumber(JsonNumber number) {
    try {
      return number.isIntegral() ? number.bigIntegerValueExact() : null;
    } catch (ArithmeticException | UnsupportedOperationException | NumberFormatException e) {
      return null;
    }
  }

  static String printable(String field) {
    String clean =
        field
            .codePoints()
            .filter(c -> !Character.isISOControl(c))
            .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
            .toString();
    return clean.length() <= 64 ? clean : clean.substring(0, 64) + "…";
  }
}
