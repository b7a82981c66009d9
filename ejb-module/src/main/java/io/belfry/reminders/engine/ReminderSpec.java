package io.belfry.reminders.engine;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.Schedule;
import io.belfry.reminders.model.ReminderId;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What to set: an already validated request (Bean Validation happens in the API layer). Optional
 * parts are {@code null}; the payload is copied.
 *
 * @param firstDue the first fire time; required for {@link Schedule.Once}, ignored for {@link
 *     Schedule.Repeat} (its start), defaulted for Every (now + interval) and Cron (next match)
 * @param until no occurrence after this instant, or {@code null}
 * @param maxOccurrences at most this many positions, the first included, or {@code null}
 * @param misfire {@code null} for {@link MisfirePolicy#FIRE_ONCE}
 * @param deadline how late an occurrence may fire under {@link MisfirePolicy#SKIP}, or {@code null}
 * @param delivery {@code null} for {@link DeliveryMode#AT_MOST_ONCE}
 */
public record ReminderSpec(
    ReminderId id,
    Schedule schedule,
    Instant firstDue,
    Instant until,
    Integer maxOccurrences,
    MisfirePolicy misfire,
    Duration deadline,
    DeliveryMode delivery,
    byte[] payload,
    String contentType) {

  public ReminderSpec {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(schedule, "schedule");
    misfire = misfire == null ? MisfirePolicy.FIRE_ONCE : misfire;
    delivery = delivery == null ? DeliveryMode.AT_MOST_ONCE : delivery;
    payload = payload == null ? new byte[0] : payload.clone();
  }

  /** A one-shot reminder at {@code due} with defaults for everything else. */
  public static ReminderSpec once(ReminderId id, Instant due, byte[] payload) {
    return new ReminderSpec(
        id, new Schedule.Once(), due, null, null, null, null, null, payload, null);
  }

  /** This spec with a UTF-8 text payload. */
  public ReminderSpec withPayload(String text) {
    return new ReminderSpec(
        id,
        schedule,
        firstDue,
        until,
        maxOccurrences,
        misfire,
        deadline,
        delivery,
        text.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        "text/plain; charset=UTF-8");
  }

  /** This spec with another delivery mode. */
  public ReminderSpec withDelivery(DeliveryMode mode) {
    return new ReminderSpec(
        id,
        schedule,
        firstDue,
        until,
        maxOccurrences,
        misfire,
        deadline,
        mode,
        payload,
        contentType);
  }

  @Override
  public byte[] payload() {
    return payload.clone();
  }
}
