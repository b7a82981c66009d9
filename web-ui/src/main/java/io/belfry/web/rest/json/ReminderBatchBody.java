package io.belfry.web.rest.json;

import static io.belfry.reminders.model.JsonFactory.JSON;

import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.InvalidReminderException.Violation;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.Reminders;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON body of {@code POST /reminders/{namespace}}: {@code {"reminders": [item, ...]}}, each
 * item a {@link ReminderBody} plus its {@code "key"}. Every item is read before the first error is
 * reported, so one answer names every malformed field, as {@code reminders[i].field}.
 */
public final class ReminderBatchBody {

  private ReminderBatchBody() {}

  /**
   * @throws InvalidReminderException if the body or any item is malformed; each violation names its
   *     item and field
   */
  public static List<ReminderRequest> read(String namespace, JsonObject body) {
    for (String field : body.keySet()) {
      if (!field.equals("reminders")) {
        throw InvalidReminderException.of(field, "is not a known field");
      }
    }
    JsonValue list = body.get("reminders");
    if (!(list instanceof JsonArray items)) {
      throw InvalidReminderException.of("reminders", "must be an array of reminders");
    }
    if (items.size() > Reminders.MAX_BATCH) {
      // checked before reading the items, so an oversized batch costs no parsing
      throw InvalidReminderException.of(
          "reminders",
          "must hold at most " + Reminders.MAX_BATCH + " reminders, not " + items.size());
    }
    List<ReminderRequest> requests = new ArrayList<>(items.size());
    List<Violation> violations = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      String prefix = "reminders[" + i + "]";
      if (!(items.get(i) instanceof JsonObject item)) {
        violations.add(new Violation(prefix, "must be a JSON object"));
        continue;
      }
      JsonValue key = item.get("key");
      if (!(key instanceof JsonString text)) {
        violations.add(new Violation(prefix + ".key", "is required, as a string"));
      }
      try {
        requests.add(
            ReminderBody.read(
                namespace,
                key instanceof JsonString text ? text.getString() : null,
                JSON.createObjectBuilder(item).remove("key").build()));
      } catch (InvalidReminderException e) {
        e.getViolations()
            .forEach(v -> violations.add(new Violation(prefix + "." + v.field(), v.message())));
      }
    }
    if (!violations.isEmpty()) {
      throw new InvalidReminderException(violations);
    }
    return requests;
  }
}
