package io.belfry.web.console.sink;

import com.vaadin.flow.component.HasValidation;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.formlayout.FormLayout;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.notification.NotificationVariant;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.PasswordField;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.data.binder.BeanValidationBinder;
import com.vaadin.flow.data.binder.Result;
import com.vaadin.flow.data.binder.ValidationException;
import com.vaadin.flow.data.converter.Converter;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.InvalidReminderException.Violation;
import io.belfry.reminders.sink.SinkConfiguration;
import io.belfry.reminders.sink.SinkDirectory.StoredSink;
import io.belfry.reminders.sink.SinkException;
import io.belfry.reminders.sink.SinkSettings;
import io.belfry.web.DefaultNamespace;
import io.belfry.web.console.AdminOnly;
import io.belfry.web.console.CurrentUser;
import io.belfry.web.console.MainLayout;
import io.belfry.web.console.Notices;
import io.belfry.web.console.Routes;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

/**
 * Admins only: the sink of the namespace {@value DefaultNamespace#NAME}, a webhook, an ActiveMQ
 * Artemis queue or topic, or both. The form binds {@link SinkSettings} with a {@link
 * BeanValidationBinder}, so each field is checked with the constraints the REST API applies, and
 * saving goes through {@link SinkConfiguration} like {@code PUT /namespaces/default/sink}. The
 * secret and the broker password are never shown; left empty, they are kept.
 */
@Route(value = Routes.SINK, layout = MainLayout.class)
@PageTitle("Sink · Belfry")
@Dependent
@AdminOnly
public class SinkView extends VerticalLayout implements BeforeEnterObserver {

  private static final long serialVersionUID = 1L;

  static final String NAMESPACE = DefaultNamespace.NAME;

  private final SinkConfiguration sinks;
  private final TextField webhookUrl = new TextField("Webhook URL");
  private final PasswordField secret = new PasswordField("Secret (HMAC-SHA256 key)");
  private final TextField timeout = new TextField("Timeout (e.g. PT5S)");
  private final TextField jmsUrl = new TextField("Broker URL (tcp://host:port)");
  private final TextField jmsDestination = new TextField("Destination (queue:NAME or topic:NAME)");
  private final TextField jmsUser = new TextField("Broker user (optional)");
  private final PasswordField jmsPassword = new PasswordField("Broker password (optional)");
  private final Paragraph status = new Paragraph();
  private final Button save = new Button("Save", e -> save());
  private final Button remove = new Button("Remove sink", e -> remove());
  private final BeanValidationBinder<SinkSettings> binder =
      new BeanValidationBinder<>(SinkSettings.class);
  private final Map<String, HasValidation> byField;

  @Inject
  public SinkView(SinkConfiguration sinks) {
    this.sinks = sinks;
    byField =
        Map.of(
            "webhookUrl", webhookUrl,
            "secret", secret,
            "timeout", timeout,
            "jmsUrl", jmsUrl,
            "jmsDestination", jmsDestination,
            "jmsUser", jmsUser,
            "jmsPassword", jmsPassword);
    configureFields();
    configureBinder();
    add(
        new H2("Sink of namespace " + NAMESPACE),
        new Paragraph(
            "Every fire of namespace "
                + NAMESPACE
                + " is also posted to the webhook, signed with the secret, and/or sent to the"
                + " queue or topic of an ActiveMQ Artemis broker (docs/sinks.md). Fill in one or"
                + " both. A change reaches the other nodes within 5 seconds."),
        new FormLayout(webhookUrl, secret, timeout),
        new FormLayout(jmsUrl, jmsDestination, jmsUser, jmsPassword),
        new HorizontalLayout(save, remove),
        status);
  }

  @Override
  public void beforeEnter(BeforeEnterEvent event) {
    load();
  }

  private void configureFields() {
    webhookUrl.setId("webhookUrl");
    webhookUrl.setWidthFull();
    webhookUrl.setPlaceholder("https://hooks.example.com/belfry");
    secret.setId("secret");
    timeout.setId("timeout");
    jmsUrl.setId("jmsUrl");
    jmsUrl.setPlaceholder("tcp://127.0.0.1:61616");
    jmsDestination.setId("jmsDestination");
    jmsDestination.setPlaceholder("queue:belfry.fires");
    jmsUser.setId("jmsUser");
    jmsPassword.setId("jmsPassword");
    status.setId("sink-status");
    save.setId("save-sink");
    save.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    remove.setId("remove-sink");
    remove.addThemeVariants(ButtonVariant.LUMO_ERROR);
  }

  private void configureBinder() {
    binder.forField(webhookUrl).withNullRepresentation("").bind("webhookUrl");
    binder.forField(secret).withNullRepresentation("").bind("secret");
    binder
        .forField(timeout)
        .withNullRepresentation("")
        .withConverter(
            Converter.<String, Duration>from(
                text -> text == null ? Result.ok(null) : parseDuration(text.trim()),
                duration -> duration == null ? null : duration.toString()))
        .bind("timeout");
    binder.forField(jmsUrl).withNullRepresentation("").bind("jmsUrl");
    binder.forField(jmsDestination).withNullRepresentation("").bind("jmsDestination");
    binder.forField(jmsUser).withNullRepresentation("").bind("jmsUser");
    binder.forField(jmsPassword).withNullRepresentation("").bind("jmsPassword");
  }

  private static Result<Duration> parseDuration(String text) {
    try {
      return Result.ok(Duration.parse(text));
    } catch (DateTimeParseException e) {
      return Result.error("must be an ISO 8601 duration, e.g. PT5S");
    }
  }

  private void load() {
    Optional<StoredSink> stored;
    try {
      stored = sinks.read(NAMESPACE);
    } catch (SinkException e) {
      status.setText("The sink configuration is not available now: " + e.getMessage());
      save.setEnabled(false);
      remove.setEnabled(false);
      return;
    }
    save.setEnabled(true);
    remove.setEnabled(stored.isPresent());
    binder.readRecord(
        stored
            .map(s -> s.settings().withSecret(null).withJmsPassword(null))
            .orElse(SinkSettings.webhook(null, null, SinkSettings.DEFAULT_TIMEOUT)));
    secret.setHelperText(
        stored.isPresent() && stored.get().settings().secret() != null
            ? "A secret is set: leave empty to keep it"
            : "16 to 256 characters");
    jmsPassword.setHelperText(
        stored.isPresent() && stored.get().settings().jmsPassword() != null
            ? "A password is set: leave empty to keep it (same user)"
            : "");
    status.setText(
        stored
            .map(
                s ->
                    "Saved "
                        + s.updatedAt()
                        + (s.updatedBy() == null ? "" : " by " + s.updatedBy()))
            .orElse("No sink: fires of " + NAMESPACE + " reach only its observers."));
  }

  private void save() {
    CurrentUser.requireAdmin();
    SinkSettings settings;
    try {
      settings = binder.writeRecord();
    } catch (ValidationException e) {
      return; // the binder marks the fields
    }
    try {
      sinks.save(NAMESPACE, settings, CurrentUser.name());
    } catch (InvalidReminderException e) {
      show(e);
      return;
    } catch (SinkException e) {
      Notices.show("Not saved: " + e.getMessage(), NotificationVariant.LUMO_ERROR);
      return;
    }
    Notices.show("Sink saved", NotificationVariant.LUMO_SUCCESS);
    load();
  }

  private void remove() {
    CurrentUser.requireAdmin();
    try {
      sinks.remove(NAMESPACE);
    } catch (SinkException e) {
      Notices.show("Not removed: " + e.getMessage(), NotificationVariant.LUMO_ERROR);
      return;
    }
    Notices.show("Sink removed", NotificationVariant.LUMO_SUCCESS);
    load();
  }

  /** Violations the binder cannot see (a rule across fields, e.g. a missing secret). */
  private void show(InvalidReminderException e) {
    for (Violation v : e.getViolations()) {
      if (byField.containsKey(v.field())) {
        byField.get(v.field()).setErrorMessage(v.message());
        byField.get(v.field()).setInvalid(true);
      } else {
        Notices.show(v.toString(), NotificationVariant.LUMO_ERROR);
      }
    }
  }
}
