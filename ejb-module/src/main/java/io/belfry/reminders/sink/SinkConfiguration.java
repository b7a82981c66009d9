package io.belfry.reminders.sink;

import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.validation.ReminderNamespace;
import io.belfry.reminders.sink.SinkDirectory.StoredSink;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import jakarta.validation.constraints.NotNull;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Reads and changes the namespaces' sinks for the REST API and the console, with one set of checks:
 * the namespace rule of reminders and the constraints of {@link SinkSettings}. A change that breaks
 * one throws {@link InvalidReminderException} naming the field, and changes nothing.
 *
 * <p>A {@code null} secret in a change keeps the stored one, so that a URL or a timeout can be
 * changed without handing the secret around again; likewise a {@code null} {@code jmsPassword}
 * keeps the stored one while the {@code jmsUser} stays the same.
 */
@ApplicationScoped
public class SinkConfiguration {

  @Inject Instance<SinkDirectory> directories;

  @Inject Validator validator;

  /** The namespace of a request, checked with the reminders' rule. */
  record NamespaceOf(@NotNull(message = "is required") @ReminderNamespace String namespace) {}

  public Optional<StoredSink> read(String namespace) {
    check(namespace, null);
    return directory().read(namespace);
  }

  /**
   * Validates and stores {@code settings} as the sink of {@code namespace}.
   *
   * @return whether the sink was created (rather than replaced)
   * @throws InvalidReminderException with one violation per offending field; nothing is changed
   */
  public boolean save(String namespace, SinkSettings settings, String principal) {
    check(namespace, null);
    SinkSettings complete = settings;
    boolean keepSecret = settings.hasWebhook() && settings.secret() == null;
    boolean keepPassword =
        settings.hasJms() && settings.jmsUser() != null && settings.jmsPassword() == null;
    if (keepSecret || keepPassword) {
      Optional<SinkSettings> stored = directory().read(namespace).map(StoredSink::settings);
      if (stored.isPresent() && keepSecret) {
        complete = complete.withSecret(stored.get().secret());
      }
      if (stored.isPresent() && keepPassword && settings.jmsUser().equals(stored.get().jmsUser())) {
        complete = complete.withJmsPassword(stored.get().jmsPassword());
      }
    }
    check(namespace, complete);
    return directory().save(namespace, complete, principal);
  }

  public boolean remove(String namespace) {
    check(namespace, null);
    return directory().remove(namespace);
  }

  /** The violations of {@code settings}, without storing anything (the console's field checks). */
  public Set<ConstraintViolation<SinkSettings>> violations(SinkSettings settings) {
    return validator.validate(settings);
  }

  private void check(String namespace, SinkSettings settings) {
    Set<ConstraintViolation<?>> violations =
        new HashSet<>(validator.validate(new NamespaceOf(namespace)));
    if (settings != null) {
      violations.addAll(validator.validate(settings));
    }
    if (!violations.isEmpty()) {
      throw InvalidReminderException.from(violations);
    }
  }

  private SinkDirectory directory() {
    if (!directories.isResolvable()) {
      throw new IllegalStateException("no sink directory: the audit module is not deployed");
    }
    return directories.get();
  }
}
