package io.belfry.reminders.api;

import static io.belfry.reminders.model.JsonFactory.JSON;

import io.belfry.reminders.api.validation.ConsistentSchedule;
import io.belfry.reminders.api.validation.DurationRange;
import io.belfry.reminders.api.validation.Interval;
import io.belfry.reminders.api.validation.JsonPayload;
import io.belfry.reminders.api.validation.PayloadSize;
import io.belfry.reminders.api.validation.ReminderKey;
import io.belfry.reminders.api.validation.ReminderNamespace;
import io.belfry.reminders.api.validation.RepeatingInterval;
import io.belfry.reminders.api.validation.TimeZoneId;
import io.belfry.reminders.api.validation.WithinHorizon;
import io.belfry.reminders.schedule.ScheduleParser;
import jakarta.json.JsonException;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.json.bind.annotation.JsonbTransient;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * What to remind, when, and how often: the one input of every entry point. The Java API takes it
 * from the {@link #builder() builder}, REST binds its JSON body onto it (the property names are the
 * REST contract's), and the console binds its form onto it. One type means one set of constraints:
 * Bean Validation checks every rule below, and each violation names the field.
 *
 * <pre>{@code
 * reminders.set(ReminderRequest.key("cart-42").after(Duration.ofHours(1)).payloadJson(cart).build());
 * reminders.set(ReminderRequest.key("digest").cron("0 9 * * MON-FRI", "Europe/Paris").build());
 * reminders.set(ReminderRequest.key("poll").at(start).every("15m").maxOccurrences(10).build());
 * }</pre>
 *
 * <h2>Rules</h2>
 *
 * <ul>
 *   <li>{@code key}: required, 1–512 printable characters; {@code namespace}: optional (the
 *       caller's namespace), 1–128 characters of {@code [A-Za-z0-9._-]}, starting with a letter or
 *       digit.
 *   <li>First fire time: exactly one of {@code fireAt} and {@code delay}, except that {@code
 *       repeat} carries its start (then neither may be given) and {@code cron} may go without one
 *       (then the first match after now fires first). {@code fireAt} within 100 years of now (past
 *       allowed: the misfire policy decides); {@code delay} from zero to 100 years.
 *   <li>Recurrence: at most one of {@code every}, {@code cron} (read in {@code zone}, default UTC)
 *       and {@code repeat}. Intervals and repeat periods at least {@link
 *       ValidationLimits#minInterval()}. {@code zone} is checked even without {@code cron}, where
 *       it is ignored.
 *   <li>{@code until} strictly after the first fire time; {@code maxOccurrences} at least 1 and
 *       counts the first fire. Both are allowed with a one-shot, where they change nothing.
 *   <li>{@code deadline} (zero to 100 years) only with {@code misfire = SKIP}, the only policy that
 *       reads it; any other combination is rejected rather than silently ignored. {@code SKIP}
 *       without a deadline never skips.
 *   <li>{@code payload} at most {@link ValidationLimits#maxPayloadBytes()}; with a JSON content
 *       type ({@code application/json} or {@code …+json}) it must be well-formed JSON.
 * </ul>
 *
 * <p>Setting {@code misfire}, {@code delivery}, {@code zone} or {@code contentType} to {@code null}
 * restores its default, so that a JSON {@code null} means "the default".
 *
 * <p>In JSON the payload is any JSON value ({@code "payload": {"cart": 42}}), stored as its UTF-8
 * text with content type {@code application/json}; binary payloads go through the Java API.
 */
@ConsistentSchedule
@JsonPayload
public class ReminderRequest {

  public static final String DEFAULT_ZONE = "UTC";
  public static final String DEFAULT_CONTENT_TYPE = "application/octet-stream";
  public static final String JSON_CONTENT_TYPE = "application/json";
  public static final MisfirePolicy DEFAULT_MISFIRE = MisfirePolicy.FIRE_ONCE;
  public static final DeliveryMode DEFAULT_DELIVERY = DeliveryMode.AT_MOST_ONCE;

  private static final String HUNDRED_YEARS = "P36525D";

  @ReminderNamespace private String namespace;

  @NotNull(message = "is required")
  @ReminderKey
  private String key;

  @WithinHorizon private Instant fireAt;

  @DurationRange(max = HUNDRED_YEARS, message = "must be between zero and 100 years")
  private Duration delay;

  @Interval private String every;

  private String cron;

  @TimeZoneId private String zone = DEFAULT_ZONE;

  @RepeatingInterval private String repeat;

  @WithinHorizon private Instant until;

  @Min(value = 1, message = "must be at least 1")
  private Integer maxOccurrences;

  @NotNull(message = "is required")
  private MisfirePolicy misfire = DEFAULT_MISFIRE;

  @DurationRange(max = HUNDRED_YEARS, message = "must be between zero and 100 years")
  private Duration deadline;

  @NotNull(message = "is required")
  private DeliveryMode delivery = DEFAULT_DELIVERY;

  @JsonbTransient @PayloadSize private byte[] payload;

  @NotBlank(message = "must not be blank")
  @Size(max = 255, message = "must be at most 255 characters")
  private String contentType = DEFAULT_CONTENT_TYPE;

  /** An empty request with the defaults, for JSON-B and form binders. */
  public ReminderRequest() {}

  private ReminderRequest(ReminderRequest other) {
    namespace = other.namespace;
    key = other.key;
    fireAt = other.fireAt;
    delay = other.delay;
    every = other.every;
    cron = other.cron;
    zone = other.zone;
    repeat = other.repeat;
    until = other.until;
    maxOccurrences = other.maxOccurrences;
    misfire = other.misfire;
    deadline = other.deadline;
    delivery = other.delivery;
    payload = other.payload == null ? null : other.payload.clone();
    contentType = other.contentType;
  }

  /** A builder with no key yet. */
  public static Builder builder() {
    return new Builder(new ReminderRequest());
  }

  /**
   * A builder for the reminder {@code key}: {@code ReminderRequest.key("cart-42").at(t).build()}.
   */
  public static Builder key(String key) {
    return builder().key(key);
  }

  /** A builder that starts from a copy of this request. */
  public Builder toBuilder() {
    return new Builder(new ReminderRequest(this));
  }

  // ---- conversions, for validated requests ----

  /**
   * The schedule the fields describe: {@link Schedule.Repeat}, {@link Schedule.Cron}, {@link
   * Schedule.Every}, or {@link Schedule.Once} when none of {@code repeat}, {@code cron}, {@code
   * every} is given.
   *
   * @throws IllegalArgumentException if the text does not parse (validate first to get every
   *     problem at once, each on its field)
   */
  public Schedule schedule() {
    if (repeat != null) {
      return ScheduleParser.repeat(repeat);
    }
    if (cron != null) {
      return ScheduleParser.cron(cron, zone);
    }
    if (every != null) {
      return ScheduleParser.every(every);
    }
    return new Schedule.Once();
  }

  /**
   * The requested first fire time: {@code fireAt}, or {@code now + delay}, or the start of {@code
   * repeat}; {@code null} when none is given, which for a cron schedule means "the first match
   * strictly after now" (see {@code Timeline.first}).
   *
   * @throws IllegalArgumentException if {@code repeat} does not parse
   */
  public Instant firstFireAt(Instant now) {
    Objects.requireNonNull(now, "now");
    if (repeat != null) {
      return ScheduleParser.repeat(repeat).start();
    }
    if (fireAt != null) {
      return fireAt;
    }
    if (delay != null) {
      return now.plus(delay);
    }
    return null;
  }

  /**
   * The schedule as given, for {@link Reminder#scheduleText()}: {@code once}, {@code every 15m},
   * {@code cron 0 9 * * MON-FRI Europe/Paris}, or the repeating interval itself.
   */
  public String scheduleText() {
    if (repeat != null) {
      return repeat.trim();
    }
    if (cron != null) {
      return "cron " + cron.trim() + " " + zone.trim();
    }
    if (every != null) {
      return "every " + every.trim();
    }
    return "once";
  }

  /** Whether the content type is JSON: {@code application/json} or a {@code +json} suffix. */
  public boolean hasJsonContentType() {
    return isJsonContentType(contentType);
  }

  /** Whether {@code contentType} is JSON: {@code application/json} or a {@code +json} suffix. */
  public static boolean isJsonContentType(String contentType) {
    if (contentType == null) {
      return false;
    }
    int parameters = contentType.indexOf(';');
    String mediaType =
        (parameters < 0 ? contentType : contentType.substring(0, parameters))
            .trim()
            .toLowerCase(Locale.ROOT);
    return mediaType.equals(JSON_CONTENT_TYPE)
        || (mediaType.startsWith("application/") && mediaType.endsWith("+json"));
  }

  // ---- JavaBean properties, named as in the REST contract ----

  /** {@code null} for the caller's namespace. */
  public String getNamespace() {
    return namespace;
  }

  public void setNamespace(String namespace) {
    this.namespace = namespace;
  }

  public String getKey() {
    return key;
  }

  public void setKey(String key) {
    this.key = key;
  }

  public Instant getFireAt() {
    return fireAt;
  }

  public void setFireAt(Instant fireAt) {
    this.fireAt = fireAt;
  }

  public Duration getDelay() {
    return delay;
  }

  public void setDelay(Duration delay) {
    this.delay = delay;
  }

  /** Interval text: {@code PT15M}, {@code 15m}, {@code 90s} or milliseconds. */
  public String getEvery() {
    return every;
  }

  public void setEvery(String every) {
    this.every = every;
  }

  /** A Unix 5-field cron expression, read in {@link #getZone()}. */
  public String getCron() {
    return cron;
  }

  public void setCron(String cron) {
    this.cron = cron;
  }

  public String getZone() {
    return zone;
  }

  public void setZone(String zone) {
    this.zone = zone == null ? DEFAULT_ZONE : zone;
  }

  /** An ISO 8601 repeating interval {@code R[n]/start/period}. */
  public String getRepeat() {
    return repeat;
  }

  public void setRepeat(String repeat) {
    this.repeat = repeat;
  }

  public Instant getUntil() {
    return until;
  }

  public void setUntil(Instant until) {
    this.until = until;
  }

  public Integer getMaxOccurrences() {
    return maxOccurrences;
  }

  public void setMaxOccurrences(Integer maxOccurrences) {
    this.maxOccurrences = maxOccurrences;
  }

  public MisfirePolicy getMisfire() {
    return misfire;
  }

  public void setMisfire(MisfirePolicy misfire) {
    this.misfire = misfire == null ? DEFAULT_MISFIRE : misfire;
  }

  /** How late an occurrence may still fire under {@link MisfirePolicy#SKIP}. */
  public Duration getDeadline() {
    return deadline;
  }

  public void setDeadline(Duration deadline) {
    this.deadline = deadline;
  }

  public DeliveryMode getDelivery() {
    return delivery;
  }

  public void setDelivery(DeliveryMode delivery) {
    this.delivery = delivery == null ? DEFAULT_DELIVERY : delivery;
  }

  /** A copy of the payload bytes, or {@code null} for none. */
  @JsonbTransient
  public byte[] getPayload() {
    return payload == null ? null : payload.clone();
  }

  /** Copies {@code payload}; the content type stays as it is. */
  @JsonbTransient
  public void setPayload(byte[] payload) {
    this.payload = payload == null ? null : payload.clone();
  }

  public String getContentType() {
    return contentType;
  }

  public void setContentType(String contentType) {
    this.contentType = contentType == null ? DEFAULT_CONTENT_TYPE : contentType;
  }

  /**
   * The payload as JSON-B sees it: the JSON value of a JSON payload; {@code null} for none or for a
   * payload of another content type, which JSON cannot carry faithfully.
   */
  @JsonbProperty("payload")
  public JsonValue getPayloadJsonValue() {
    if (payload == null || !hasJsonContentType()) {
      return null;
    }
    try (JsonReader reader = JSON.createReader(new ByteArrayInputStream(payload))) {
      return reader.readValue();
    } catch (JsonException notJson) {
      return null;
    }
  }

  /**
   * Binds the REST body's {@code payload}, any JSON value: stores its text as UTF-8 with content
   * type {@code application/json}. A JSON {@code null} removes the payload.
   */
  @JsonbProperty("payload")
  public void setPayloadJsonValue(JsonValue value) {
    if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
      payload = null;
      return;
    }
    payload = value.toString().getBytes(StandardCharsets.UTF_8);
    contentType = JSON_CONTENT_TYPE;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ReminderRequest other)) {
      return false;
    }
    return Objects.equals(namespace, other.namespace)
        && Objects.equals(key, other.key)
        && Objects.equals(fireAt, other.fireAt)
        && Objects.equals(delay, other.delay)
        && Objects.equals(every, other.every)
        && Objects.equals(cron, other.cron)
        && Objects.equals(zone, other.zone)
        && Objects.equals(repeat, other.repeat)
        && Objects.equals(until, other.until)
        && Objects.equals(maxOccurrences, other.maxOccurrences)
        && misfire == other.misfire
        && Objects.equals(deadline, other.deadline)
        && delivery == other.delivery
        && Arrays.equals(payload, other.payload)
        && Objects.equals(contentType, other.contentType);
  }

  @Override
  public int hashCode() {
    return Objects.hash(namespace, key, fireAt, delay, every, cron, repeat, until);
  }

  /** Without the payload content, which may be large or private. */
  @Override
  public String toString() {
    return "ReminderRequest["
        + (namespace == null ? "" : namespace + ":")
        + Quoting.quote(key)
        + (fireAt == null ? "" : " fireAt=" + fireAt)
        + (delay == null ? "" : " delay=" + delay)
        + " "
        + Quoting.quote(scheduleText())
        + (until == null ? "" : " until=" + until)
        + (maxOccurrences == null ? "" : " maxOccurrences=" + maxOccurrences)
        + " misfire="
        + misfire
        + (deadline == null ? "" : " deadline=" + deadline)
        + " delivery="
        + delivery
        + " payload="
        + (payload == null ? 0 : payload.length)
        + " bytes "
        + contentType
        + "]";
  }

  /**
   * Fluent construction; {@link #build()} returns a copy, so a builder can be reused as a template.
   */
  public static final class Builder {

    private final ReminderRequest request;

    private Builder(ReminderRequest request) {
      this.request = request;
    }

    /** {@code null} (the default) for the caller's namespace. */
    public Builder namespace(String namespace) {
      request.setNamespace(namespace);
      return this;
    }

    public Builder key(String key) {
      request.setKey(key);
      return this;
    }

    /** First fire at {@code fireAt}. */
    public Builder at(Instant fireAt) {
      request.setFireAt(fireAt);
      return this;
    }

    /** First fire {@code delay} after the request is accepted. */
    public Builder after(Duration delay) {
      request.setDelay(delay);
      return this;
    }

    /** Repeat every {@code interval}: {@code PT15M}, {@code 15m}, {@code 90s} or milliseconds. */
    public Builder every(String interval) {
      request.setEvery(interval);
      return this;
    }

    /** Repeat every {@code interval}, kept as its ISO 8601 text. */
    public Builder every(Duration interval) {
      request.setEvery(interval == null ? null : interval.toString());
      return this;
    }

    /** Fire at the matches of a Unix 5-field cron expression, in the zone (default UTC). */
    public Builder cron(String expression) {
      request.setCron(expression);
      return this;
    }

    public Builder cron(String expression, String zone) {
      request.setCron(expression);
      request.setZone(zone);
      return this;
    }

    public Builder cron(String expression, ZoneId zone) {
      return cron(expression, zone == null ? null : zone.getId());
    }

    public Builder zone(String zone) {
      request.setZone(zone);
      return this;
    }

    /** An ISO 8601 repeating interval, e.g. {@code R5/2026-11-21T09:00:00Z/PT1H}. */
    public Builder repeat(String repeatingInterval) {
      request.setRepeat(repeatingInterval);
      return this;
    }

    public Builder until(Instant until) {
      request.setUntil(until);
      return this;
    }

    public Builder maxOccurrences(Integer maxOccurrences) {
      request.setMaxOccurrences(maxOccurrences);
      return this;
    }

    public Builder misfire(MisfirePolicy misfire) {
      request.setMisfire(misfire);
      return this;
    }

    /** Skip occurrences later than {@code deadline}; sets {@code misfire} to SKIP as well. */
    public Builder skipIfLaterThan(Duration deadline) {
      request.setMisfire(MisfirePolicy.SKIP);
      request.setDeadline(deadline);
      return this;
    }

    public Builder deadline(Duration deadline) {
      request.setDeadline(deadline);
      return this;
    }

    public Builder delivery(DeliveryMode delivery) {
      request.setDelivery(delivery);
      return this;
    }

    /** Raw bytes; the content type stays as set (default {@code application/octet-stream}). */
    public Builder payload(byte[] payload) {
      request.setPayload(payload);
      return this;
    }

    public Builder payload(byte[] payload, String contentType) {
      request.setPayload(payload);
      request.setContentType(contentType);
      return this;
    }

    /** UTF-8 text as {@code text/plain; charset=UTF-8}. */
    public Builder payloadText(String text) {
      return payload(
          text == null ? null : text.getBytes(StandardCharsets.UTF_8), "text/plain; charset=UTF-8");
    }

    /**
     * JSON text as UTF-8 {@code application/json}; validation rejects it if it is not well-formed.
     */
    public Builder payloadJson(String json) {
      return payload(
          json == null ? null : json.getBytes(StandardCharsets.UTF_8), JSON_CONTENT_TYPE);
    }

    public Builder contentType(String contentType) {
      request.setContentType(contentType);
      return this;
    }

    /** A new request; not validated here (the entry points validate). */
    public ReminderRequest build() {
      return new ReminderRequest(request);
    }
  }
}
