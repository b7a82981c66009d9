package io.belfry.reminders.cdi;

import io.belfry.reminders.api.Reminder;
import io.belfry.reminders.api.ReminderPage;
import io.belfry.reminders.api.ReminderQuery;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.api.validation.EveryPropertyReachable;
import io.belfry.reminders.engine.EngineReminders;
import io.belfry.reminders.schedule.Clock;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The {@link Reminders} bean of a deployment: {@link EngineReminders} on this deployment's engine,
 * with a validator of the container's factory that reads the engine's clock (and never asks JPA
 * whether a request's property is loaded: {@link EveryPropertyReachable}), and the deployment's
 * namespace. The logic lives there, so that the test kit runs the same door without CDI.
 */
@ApplicationScoped
public class RemindersBean implements Reminders {

  @Inject ValidatorFactory validators;

  @Inject EngineRuntime runtime;

  @Inject DeploymentNamespaces namespaces;

  private Reminders delegate;

  @PostConstruct
  void init() {
    // suppliers, not values: the engine, its clock and the namespaces resolve when first used.
    // "Now" for after(…), cron and the validator's horizon is the engine's: the system clock, or
    // the virtual one of a test server (EngineRuntime decides).
    Clock clock = () -> runtime.clock().millis();
    Validator checks =
        validators
            .usingContext()
            .clockProvider(clock::asJavaClock)
            .traversableResolver(EveryPropertyReachable.INSTANCE)
            .getValidator();
    delegate = new EngineReminders(runtime::engine, checks, namespaces::callerNamespace, clock);
  }

  @Override
  public Reminder set(ReminderRequest request) {
    return delegate.set(request);
  }

  @Override
  public SetOutcome put(ReminderRequest request) {
    return delegate.put(request);
  }

  @Override
  public List<SetOutcome> putAll(List<ReminderRequest> reminders) {
    return delegate.putAll(reminders);
  }

  @Override
  public Reminder setAt(String key, Instant at, byte[] payload) {
    return delegate.setAt(key, at, payload);
  }

  @Override
  public Reminder setAfter(String key, Duration delay, byte[] payload) {
    return delegate.setAfter(key, delay, payload);
  }

  @Override
  public Optional<Reminder> get(String key) {
    return delegate.get(key);
  }

  @Override
  public Optional<Reminder> get(String namespace, String key) {
    return delegate.get(namespace, key);
  }

  @Override
  public void cancel(String key) {
    delegate.cancel(key);
  }

  @Override
  public void cancel(String namespace, String key) {
    delegate.cancel(namespace, key);
  }

  @Override
  public void redeliver(String namespace, String key) {
    delegate.redeliver(namespace, key);
  }

  @Override
  public ReminderPage list(ReminderQuery query) {
    return delegate.list(query);
  }

  @Override
  public List<Instant> preview(ReminderRequest request, int count) {
    return delegate.preview(request, count);
  }
}
