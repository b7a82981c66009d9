package io.belfry.reminders.cdi;

import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.Reminder;
import io.belfry.reminders.api.ReminderPage;
import io.belfry.reminders.api.ReminderQuery;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.ReminderStatus;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.engine.ListQuery;
import io.belfry.reminders.engine.RecordPage;
import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.engine.SetResult;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.schedule.Bounds;
import io.belfry.reminders.schedule.Occurrence;
import io.belfry.reminders.schedule.Timeline;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link Reminders} bean: checks every request with Bean Validation at the door (the same
 * constraints the REST API and the console use), fills in the caller's namespace, and hands the
 * engine a validated specification.
 */
@ApplicationScoped
public class RemindersBean implements Reminders {

  @Inject Validator validator;

  @Inject EngineRuntime runtime;

  @Inject DeploymentNamespaces namespaces;

  @Override
  public Reminder set(ReminderRequest request) {
    return put(request).reminder();
  }

  @Override
  public SetOutcome put(ReminderRequest request) {
    ReminderRequest complete = validated(request);
    Instant now = Instant.now();
    ReminderSpec spec =
        new ReminderSpec(
            ReminderId.of(complete.getNamespace(), complete.getKey()),
            complete.schedule(),
            complete.firstFireAt(now),
            complete.getUntil(),
            complete.getMaxOccurrences(),
            complete.getMisfire(),
            complete.getDeadline(),
            complete.getDelivery(),
            complete.getPayload(),
            complete.getContentType());
    try {
      SetResult result = engine().set(spec);
      return new SetOutcome(view(result.record()), result.created());
    } catch (IllegalArgumentException e) {
      // Bounds that end the timeline before its first occurrence: nothing would ever fire.
      throw InvalidReminderException.of("until", e.getMessage());
    }
  }

  @Override
  public List<Instant> preview(ReminderRequest request, int count) {
    ReminderRequest complete = validated(request);
    Instant now = Instant.now();
    Timeline timeline =
        Timeline.of(
            complete.schedule(),
            new Bounds(
                complete.getUntil(),
                complete.getMaxOccurrences() == null
                    ? null
                    : complete.getMaxOccurrences().longValue()));
    List<Instant> due = new ArrayList<>();
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
    return get(namespaces.callerNamespace(), key);
  }

  @Override
  public Optional<Reminder> get(String namespace, String key) {
    return engine().get(id(namespace, key)).filter(r -> !r.isTombstone()).map(RemindersBean::view);
  }

  @Override
  public void cancel(String key) {
    cancel(namespaces.callerNamespace(), key);
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
        page.items().stream().map(RemindersBean::view).toList(), page.nextAfterKey().orElse(null));
  }

  private ReminderEngine engine() {
    return runtime.engine();
  }

  /** A copy of {@code request} in the caller's namespace if it names none, validated. */
  private ReminderRequest validated(ReminderRequest request) {
    if (request == null) {
      throw InvalidReminderException.of("request", "is required");
    }
    ReminderRequest complete = request.toBuilder().build();
    if (complete.getNamespace() == null) {
      complete.setNamespace(namespaces.callerNamespace());
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
  static Reminder view(ReminderRecord r) {
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
