package io.belfry.reminders.engine;

import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.InvalidReminderException.Violation;
import io.belfry.reminders.api.Reminder;
import io.belfry.reminders.api.ReminderPage;
import io.belfry.reminders.api.ReminderQuery;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.ReminderStatus;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.schedule.Bounds;
import io.belfry.reminders.schedule.Clock;
import io.belfry.reminders.schedule.Occurrence;
import io.belfry.reminders.schedule.Timeline;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The {@link Reminders} API over one engine: checks every request with Bean Validation at the door
 * (the same constraints the REST API and the console use), fills in the caller's namespace, and
 * hands the engine a validated specification. The CDI bean of a deployment and the test kit's
 * in-JVM engine (module {@code test-kit}) both delegate here, so a test runs the same door as
 * production.
 *
 * <p>"Now" (for {@code after(…)}, cron's next match and previews) comes from the clock given here,
 * which should be the engine's: the validator's {@link jakarta.validation.ClockProvider} should
 * read the same one.
 */
public final class EngineReminders implements Reminders {

  private final Supplier<ReminderEngine> engine;
  private final Validator validator;
  private final Supplier<String> callerNamespace;
  private final Clock clock;

  /**
   * @param engine the engine to use at each call (a supplier: a deployment's engine starts after
   *     this object is made, and a test may replace it to simulate a restart)
   * @param callerNamespace the namespace of requests that name none
   */
  public EngineReminders(
      Supplier<ReminderEngine> engine,
      Validator validator,
      Supplier<String> callerNamespace,
      Clock clock) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.validator = Objects.requireNonNull(validator, "validator");
    this.callerNamespace = Objects.requireNonNull(callerNamespace, "callerNamespace");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public Reminder set(ReminderRequest request) {
    return put(request).reminder();
  }

  @Override
  public SetOutcome put(ReminderRequest request) {
    ReminderRequest complete = validated(request);
    try {
      return put(spec(complete, clock.now()));
    } catch (IllegalArgumentException e) {
      // Bounds that end the timeline before its first occurrence: nothing would ever fire.
      throw InvalidReminderException.of("until", e.getMessage());
    }
  }

  @Override
  public List<SetOutcome> putAll(List<ReminderRequest> reminders) {
    if (reminders == null || reminders.isEmpty()) {
      throw InvalidReminderException.of("reminders", "must hold at least one reminder");
    }
    if (reminders.size() > MAX_BATCH) {
      throw InvalidReminderException.of(
          "reminders", "must hold at most " + MAX_BATCH + " reminders, not " + reminders.size());
    }
    // every request is checked, and every violation collected, before anything is set
    Instant now = clock.now();
    List<ReminderSpec> specs = new ArrayList<>();
    List<Violation> violations = new ArrayList<>();
    Map<ReminderId, Integer> firstIndexOf = new HashMap<>();
    for (int i = 0; i < reminders.size(); i++) {
      String prefix = "reminders[" + i + "].";
      try {
        ReminderRequest complete = validated(reminders.get(i));
        Integer earlier = firstIndexOf.putIfAbsent(id(complete), i);
        if (earlier != null) {
          violations.add(new Violation(prefix + "key", "repeats reminders[" + earlier + "]"));
        } else if (timeline(complete).first(complete.firstFireAt(now), now).isEmpty()) {
          violations.add(
              new Violation(
                  prefix + "until",
                  "ends the reminder before its first occurrence: it would never fire"));
        } else {
          specs.add(spec(complete, now));
        }
      } catch (InvalidReminderException e) {
        e.getViolations()
            .forEach(v -> violations.add(new Violation(prefix + v.field(), v.message())));
      }
    }
    if (!violations.isEmpty()) {
      throw new InvalidReminderException(violations);
    }
    List<SetResult> results;
    try {
      // one go: the writes of a batch share the cluster's round trips
      results = engine().setAll(specs);
    } catch (IllegalArgumentException e) {
      // checked above at the same now; the clock only moves on, which cannot end a timeline
      // sooner, so this would be a bug
      throw new IllegalStateException(e.getMessage(), e);
    }
    return results.stream()
        .map(result -> new SetOutcome(view(result.record()), result.created()))
        .toList();
  }

  private SetOutcome put(ReminderSpec spec) {
    SetResult result = engine().set(spec);
    return new SetOutcome(view(result.record()), result.created());
  }

  private static ReminderSpec spec(ReminderRequest complete, Instant now) {
    return new ReminderSpec(
        id(complete),
        complete.schedule(),
        complete.firstFireAt(now),
        complete.getUntil(),
        complete.getMaxOccurrences(),
        complete.getMisfire(),
        complete.getDeadline(),
        complete.getDelivery(),
        complete.getPayload(),
        complete.getContentType());
  }

  private static ReminderId id(ReminderRequest complete) {
    return ReminderId.of(complete.getNamespace(), complete.getKey());
  }

  private static Timeline timeline(ReminderRequest complete) {
    return Timeline.of(
        complete.schedule(),
        new Bounds(
            complete.getUntil(),
            complete.getMaxOccurrences() == null
                ? null
                : complete.getMaxOccurrences().longValue()));
  }

  @Override
  public List<Instant> preview(ReminderRequest request, int count) {
    ReminderRequest complete = validated(request);
    Instant now = clock.now();
    List<Instant> due = new ArrayList<>();
    Timeline timeline = timeline(complete);
    Optional<Occurrence> next = timeline.first(complete.firstFireAt(now), now);
    while (next.isPresent() && due.size() < count) {
      due.add(next.get().due());
      next = timeline.next(next.get());
    }
    return due;
  }

  @Override
  public Reminder setAt(String key, Instant at, byte[] payload) {
    return set(ReminderRequest.key(key).at(at).payload(payload).build());
  }

  @Override
  public Reminder setAfter(String key, Duration delay, byte[] payload) {
    return set(ReminderRequest.key(key).after(delay).payload(payload).build());
  }

  @Override
  public Optional<Reminder> get(String key) {
    return get(callerNamespace.get(), key);
  }

  @Override
  public Optional<Reminder> get(String namespace, String key) {
    return engine()
        .get(id(namespace, key))
        .filter(r -> !r.isTombstone())
        .map(EngineReminders::view);
  }

  @Override
  public void cancel(String key) {
    cancel(callerNamespace.get(), key);
  }

  @Override
  public void cancel(String namespace, String key) {
    engine().cancel(id(namespace, key));
  }

  @Override
  public void redeliver(String namespace, String key) {
    engine().redeliver(id(namespace, key));
  }

  @Override
  public ReminderPage list(ReminderQuery query) {
    ReminderQuery q = query == null ? ReminderQuery.all() : query;
    check(validator.validate(q));
    if (q.keyPrefix() != null && q.namespace() == null) {
      throw InvalidReminderException.of("keyPrefix", "needs a namespace");
    }
    RecordPage page =
        engine()
            .list(
                new ListQuery(
                    q.namespace(),
                    q.keyPrefix(),
                    q.state() == null ? null : ReminderState.valueOf(q.state().name()),
                    q.dueAfter(),
                    q.dueBefore(),
                    q.cursor(),
                    q.limit()));
    return new ReminderPage(
        page.items().stream().map(EngineReminders::view).toList(),
        page.nextAfterKey().orElse(null));
  }

  private ReminderEngine engine() {
    return engine.get();
  }

  /** A copy of {@code request} in the caller's namespace if it names none, validated. */
  private ReminderRequest validated(ReminderRequest request) {
    if (request == null) {
      throw InvalidReminderException.of("request", "is required");
    }
    ReminderRequest complete = request.toBuilder().build();
    if (complete.getNamespace() == null) {
      complete.setNamespace(callerNamespace.get());
    }
    check(validator.validate(complete));
    return complete;
  }

  private static ReminderId id(String namespace, String key) {
    if (!ReminderId.isValidNamespace(namespace)) {
      throw InvalidReminderException.of(
          "namespace",
          "must be 1 to 128 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit");
    }
    if (!ReminderId.isValidKey(key)) {
      throw InvalidReminderException.of(
          "key", "must be 1 to 512 characters without control characters");
    }
    return ReminderId.of(namespace, key);
  }

  private static <T> void check(Set<ConstraintViolation<T>> violations) {
    if (!violations.isEmpty()) {
      throw InvalidReminderException.from(violations);
    }
  }

  /** The API's read view of a stored record. */
  public static Reminder view(ReminderRecord r) {
    return new Reminder(
        r.id().namespace(),
        r.id().key(),
        r.version(),
        ReminderStatus.valueOf(r.state().name()),
        r.state().isArmed() ? Instant.ofEpochMilli(r.armAtMillis()) : null,
        r.schedule(),
        r.schedule().text(),
        r.untilMillis() == null ? null : Instant.ofEpochMilli(r.untilMillis()),
        r.maxOccurrences(),
        r.occurrence(),
        r.misfire(),
        r.deadlineMillis() == null ? null : Duration.ofMillis(r.deadlineMillis()),
        r.delivery(),
        r.payload(),
        r.contentType(),
        Instant.ofEpochMilli(r.createdAtMillis()),
        Instant.ofEpochMilli(r.updatedAtMillis()),
        r.attempts(),
        r.progress() == null ? null : r.progress().lastError());
  }
}
