package io.belfry.web.rest.json;

import static io.belfry.reminders.model.JsonFactory.JSON;

import io.belfry.reminders.api.Reminder;
import io.belfry.reminders.api.ReminderPage;
import io.belfry.reminders.api.Schedule;
import io.belfry.reminders.sink.FireJson;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/**
 * A {@link Reminder} as the API shows it. {@code schedule} is the schedule in normal form ({@code
 * once}, {@code every PT15M}, {@code cron 0 9 * * MON-FRI Europe/Paris}, or the repeating
 * interval), and the field that set it ({@code every}, {@code cron} + {@code zone}, {@code repeat})
 * is repeated so that a client can send the representation back. A JSON payload is embedded as
 * JSON; any other payload (set through the Java API) as base64 text, with its {@code contentType}.
 */
public final class ReminderJson {

  private ReminderJson() {}

  public static JsonObject of(Reminder r) {
    JsonObjectBuilder json =
        JSON.createObjectBuilder()
            .add("namespace", r.namespace())
            .add("key", r.key())
            .add("version", r.version())
            .add("state", r.state().name());
    instant(json, "nextFireAt", r.nextFireAt());
    json.add("schedule", r.scheduleText());
    Schedule schedule = r.schedule();
    if (schedule instanceof Schedule.Every every) {
      json.add("every", every.interval().toString());
    } else if (schedule instanceof Schedule.Cron cron) {
      json.add("cron", cron.expression()).add("zone", cron.zone().getId());
    } else if (schedule instanceof Schedule.Repeat repeat) {
      json.add("repeat", repeat.text());
    }
    instant(json, "until", r.until());
    if (r.maxOccurrences() == null) {
      json.addNull("maxOccurrences");
    } else {
      json.add("maxOccurrences", r.maxOccurrences());
    }
    json.add("occurrence", r.occurrence()).add("misfire", r.misfire().name());
    duration(json, "deadline", r.deadline());
    json.add("delivery", r.delivery().name()).add("attempts", r.attempts());
    if (r.lastError() == null) {
      json.addNull("lastError");
    } else {
      json.add("lastError", r.lastError());
    }
    payload(json, r);
    instant(json, "createdAt", r.createdAt());
    instant(json, "updatedAt", r.updatedAt());
    return json.build();
  }

  public static JsonObject page(ReminderPage page) {
    JsonArrayBuilder items = JSON.createArrayBuilder();
    page.items().forEach(r -> items.add(of(r)));
    JsonObjectBuilder json = JSON.createObjectBuilder().add("items", items);
    if (page.next() == null) {
      json.addNull("next");
    } else {
      json.add("next", page.next());
    }
    return json.build();
  }

  private static void payload(JsonObjectBuilder json, Reminder r) {
    byte[] payload = r.payload();
    if (r.contentType() == null) {
      json.addNull("contentType");
    } else {
      json.add("contentType", r.contentType());
    }
    if (payload.length == 0) {
      json.addNull("payload");
      return;
    }
    // JSON the parser cannot read or write back (stored through the Java API): its bytes instead
    FireJson.embeddable(r.contentType(), payload)
        .ifPresentOrElse(
            value -> json.add("payload", value),
            () -> json.add("payload", Base64.getEncoder().encodeToString(payload)));
  }

  static void instant(JsonObjectBuilder json, String name, Instant value) {
    if (value == null) {
      json.addNull(name);
    } else {
      json.add(name, value.toString());
    }
  }

  private static void duration(JsonObjectBuilder json, String name, Duration value) {
    if (value == null) {
      json.addNull(name);
    } else {
      json.add(name, value.toString());
    }
  }
}
