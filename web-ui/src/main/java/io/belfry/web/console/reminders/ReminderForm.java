package io.belfry.web.console.reminders;

import com.vaadin.flow.component.Component;
import com.vaadin.flow.component.HasValidation;
import com.vaadin.flow.component.HasValue;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.combobox.ComboBox;
import com.vaadin.flow.component.datetimepicker.DateTimePicker;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.formlayout.FormLayout;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.ListItem;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.html.UnorderedList;
import com.vaadin.flow.component.notification.NotificationVariant;
import com.vaadin.flow.component.radiobutton.RadioButtonGroup;
import com.vaadin.flow.component.select.Select;
import com.vaadin.flow.component.textfield.IntegerField;
import com.vaadin.flow.component.textfield.TextArea;
import com.vaadin.flow.component.textfield.TextField;
import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.InvalidReminderException.Violation;
import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.Reminder;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.api.RemindersUnavailableException;
import io.belfry.reminders.api.Schedule;
import io.belfry.web.console.CurrentUser;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Create or edit a reminder. Each field is the REST body's field of the same name; saving goes
 * through {@link Reminders#put} and its Bean Validation, and each violation is shown on its field,
 * with nothing saved. "Preview" lists the next five due times without saving.
 */
@Dependent
public class ReminderForm extends Dialog {

  private static final long serialVersionUID = 1L;

  static final String AT = "At a time";
  static final String AFTER = "After a delay";
  static final String ONCE = "Once";
  static final String EVERY = "Every";
  static final String CRON = "Cron";
  static final String REPEAT = "Repeating interval";

  private final Reminders reminders;

  private final TextField namespace = field("Namespace", "namespace");
  private final TextField key = field("Key", "key");
  private final RadioButtonGroup<String> firstKind = new RadioButtonGroup<>("First fire");
  private final DateTimePicker fireAt = new DateTimePicker("Fire at (UTC)");
  private final TextField delay = field("Delay (e.g. PT10M)", "delay");
  private final RadioButtonGroup<String> kind = new RadioButtonGroup<>("Schedule");
  private final TextField every = field("Every (e.g. PT15M or 15m)", "every");
  private final TextField cron = field("Cron (minute hour day month weekday)", "cron");
  private final ComboBox<String> zone = new ComboBox<>("Time zone");
  private final TextField repeat = field("Repeating interval (R5/2026-…/PT1H)", "repeat");
  private final DateTimePicker until = new DateTimePicker("Until (UTC)");
  private final IntegerField maxOccurrences = new IntegerField("Max occurrences");
  private final Select<MisfirePolicy> misfire = new Select<>();
  private final Select<DeliveryMode> delivery = new Select<>();
  private final TextField deadline = field("Skip if later than (e.g. PT5M)", "deadline");
  private final TextArea payload = new TextArea("Payload (JSON)");
  private final Span requestError = new Span();
  private final UnorderedList preview = new UnorderedList();
  private final Map<String, HasValidation> byField;
  private Runnable onSaved = () -> {};
  private Reminder editing;

  @Inject
  public ReminderForm(Reminders reminders) {
    this.reminders = reminders;
    setId("reminder-form");
    setWidth("720px");
    firstKind.setItems(AT, AFTER);
    kind.setItems(ONCE, EVERY, CRON, REPEAT);
    kind.setId("schedule-kind");
    firstKind.setId("first-kind");
    fireAt.setId("fireAt");
    until.setId("until");
    maxOccurrences.setId("maxOccurrences");
    maxOccurrences.setMin(1);
    misfire.setLabel("Misfire policy");
    misfire.setItems(MisfirePolicy.values());
    misfire.setId("misfire");
    delivery.setLabel("Delivery");
    delivery.setItems(DeliveryMode.values());
    delivery.setId("delivery");
    delivery.setHelperText("At least once: a failing handler is retried, then dead-lettered");
    zone.setItems(new TreeSet<>(ZoneId.getAvailableZoneIds()));
    zone.setId("zone");
    payload.setId("payload");
    payload.setPlaceholder("{\"order\": 42}");
    preview.setId("preview");
    requestError.setId("request-error");
    requestError.getStyle().set("color", "var(--lumo-error-text-color)");
    byField =
        Map.ofEntries(
            Map.entry("namespace", namespace),
            Map.entry("key", key),
            Map.entry("fireAt", fireAt),
            Map.entry("delay", delay),
            Map.entry("every", every),
            Map.entry("cron", cron),
            Map.entry("zone", zone),
            Map.entry("repeat", repeat),
            Map.entry("until", until),
            Map.entry("maxOccurrences", maxOccurrences),
            Map.entry("misfire", misfire),
            Map.entry("deadline", deadline),
            Map.entry("delivery", delivery),
            Map.entry("payload", payload));
    firstKind.addValueChangeListener(e -> showFirstFields());
    kind.addValueChangeListener(e -> showScheduleFields());
    misfire.addValueChangeListener(e -> deadline.setVisible(e.getValue() == MisfirePolicy.SKIP));

    FormLayout layout =
        new FormLayout(
            namespace,
            key,
            firstKind,
            fireAt,
            delay,
            kind,
            every,
            cron,
            zone,
            repeat,
            until,
            maxOccurrences,
            misfire,
            deadline,
            delivery,
            payload);
    layout.setColspan(payload, 2);
    Button previewButton = new Button("Preview next 5", e -> preview());
    previewButton.setId("preview-button");
    Div previewBox = new Div(previewButton, preview);
    add(layout, requestError, previewBox);

    Button save = new Button("Save", e -> save());
    save.setId("save-reminder");
    save.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    Button close = new Button("Close", e -> close());
    getFooter().add(close, save);
  }

  public void onSaved(Runnable action) {
    this.onSaved = action;
  }

  public void openNew() {
    editing = null;
    setHeaderTitle("New reminder");
    clearAll();
    namespace.setValue("default");
    namespace.setReadOnly(false);
    key.setReadOnly(false);
    firstKind.setValue(AFTER);
    delay.setValue("PT10M");
    kind.setValue(ONCE);
    zone.setValue(ReminderRequest.DEFAULT_ZONE);
    misfire.setValue(ReminderRequest.DEFAULT_MISFIRE);
    delivery.setValue(ReminderRequest.DEFAULT_DELIVERY);
    open();
  }

  public void openEdit(Reminder reminder) {
    editing = reminder;
    setHeaderTitle("Edit " + reminder.key() + " (version " + reminder.version() + ")");
    clearAll();
    namespace.setValue(reminder.namespace());
    key.setValue(reminder.key());
    namespace.setReadOnly(true);
    key.setReadOnly(true);
    firstKind.setValue(AT);
    if (reminder.nextFireAt() != null) {
      fireAt.setValue(LocalDateTime.ofInstant(reminder.nextFireAt(), ZoneOffset.UTC));
    }
    Schedule schedule = reminder.schedule();
    zone.setValue(ReminderRequest.DEFAULT_ZONE);
    if (schedule instanceof Schedule.Every e) {
      kind.setValue(EVERY);
      every.setValue(e.interval().toString());
    } else if (schedule instanceof Schedule.Cron c) {
      kind.setValue(CRON);
      cron.setValue(c.expression());
      zone.setValue(c.zone().getId());
    } else if (schedule instanceof Schedule.Repeat r) {
      kind.setValue(REPEAT);
      repeat.setValue(r.text());
    } else {
      kind.setValue(ONCE);
    }
    if (reminder.until() != null) {
      until.setValue(LocalDateTime.ofInstant(reminder.until(), ZoneOffset.UTC));
    }
    maxOccurrences.setValue(reminder.maxOccurrences());
    misfire.setValue(reminder.misfire());
    delivery.setValue(reminder.delivery());
    deadline.setValue(reminder.deadline() == null ? "" : reminder.deadline().toString());
    if (reminder.payload().length > 0) {
      payload.setValue(new String(reminder.payload(), StandardCharsets.UTF_8));
    }
    open();
  }

  private void clearAll() {
    byField.values().forEach(f -> ((HasValue<?, ?>) f).clear());
    byField.values().forEach(f -> f.setInvalid(false));
    requestError.setText("");
    preview.removeAll();
  }

  private void showFirstFields() {
    boolean at = AT.equals(firstKind.getValue());
    fireAt.setVisible(at);
    delay.setVisible(!at);
  }

  private void showScheduleFields() {
    String value = kind.getValue();
    every.setVisible(EVERY.equals(value));
    cron.setVisible(CRON.equals(value));
    zone.setVisible(CRON.equals(value));
    repeat.setVisible(REPEAT.equals(value));
    // a repeating interval carries its start; a cron schedule starts at its first match
    boolean needsFirst = ONCE.equals(value) || EVERY.equals(value);
    firstKind.setVisible(needsFirst);
    fireAt.setVisible(needsFirst && AT.equals(firstKind.getValue()));
    delay.setVisible(needsFirst && AFTER.equals(firstKind.getValue()));
  }

  /** The request the visible fields describe; fields that do not parse become violations. */
  private ReminderRequest request(List<Violation> violations) {
    ReminderRequest.Builder b =
        ReminderRequest.builder().namespace(text(namespace)).key(key.getValue());
    String scheduleKind = kind.getValue();
    if (ONCE.equals(scheduleKind) || EVERY.equals(scheduleKind)) {
      if (AT.equals(firstKind.getValue())) {
        b.at(fireAt.getValue() == null ? null : fireAt.getValue().toInstant(ZoneOffset.UTC));
      } else if (text(delay) != null) {
        try {
          b.after(Duration.parse(text(delay)));
        } catch (DateTimeParseException e) {
          violations.add(new Violation("delay", "must be an ISO 8601 duration, e.g. PT10M"));
        }
      }
    }
    if (EVERY.equals(scheduleKind)) {
      b.every(text(every));
    } else if (CRON.equals(scheduleKind)) {
      b.cron(text(cron), zone.getValue());
    } else if (REPEAT.equals(scheduleKind)) {
      b.repeat(text(repeat));
    }
    b.until(until.getValue() == null ? null : until.getValue().toInstant(ZoneOffset.UTC));
    b.maxOccurrences(maxOccurrences.getValue());
    if (maxOccurrences.isInvalid()
        && maxOccurrences.getValue() == null
        && !maxOccurrences.isEmpty()) {
      violations.add(new Violation("maxOccurrences", "must be a whole number"));
    }
    b.misfire(misfire.getValue());
    b.delivery(delivery.getValue());
    if (misfire.getValue() == MisfirePolicy.SKIP && text(deadline) != null) {
      try {
        b.deadline(Duration.parse(text(deadline)));
      } catch (DateTimeParseException e) {
        violations.add(new Violation("deadline", "must be an ISO 8601 duration, e.g. PT5M"));
      }
    }
    if (text(payload) != null) {
      b.payloadJson(payload.getValue());
    }
    return b.build();
  }

  private void preview() {
    preview.removeAll();
    try {
      List<Instant> due = reminders.preview(validRequest(), 5);
      if (due.isEmpty()) {
        preview.add(new ListItem("It would never fire: the bounds end it before its first time."));
      }
      Instant now = Instant.now();
      due.forEach(
          d ->
              preview.add(
                  new ListItem(
                      RemindersView.WHEN.format(d) + " (" + ScheduleWords.relative(d, now) + ")")));
    } catch (InvalidReminderException e) {
      show(e.getViolations());
    }
  }

  private void save() {
    CurrentUser.requireAdmin();
    try {
      Reminders.SetOutcome outcome = reminders.put(validRequest());
      Reminder saved = outcome.reminder();
      String message =
          outcome.created()
              ? "Created " + saved.key() + " (version " + saved.version() + ")"
              : "Replaced "
                  + saved.key()
                  + ": version "
                  + (editing == null ? "?" : editing.version())
                  + " → "
                  + saved.version();
      RemindersView.notify(message, NotificationVariant.LUMO_SUCCESS);
      close();
      onSaved.run();
    } catch (InvalidReminderException e) {
      show(e.getViolations());
    } catch (RemindersUnavailableException e) {
      // the form stays open with what was typed, so saving again is one click
      RemindersView.notify("Not saved: " + e.getMessage(), NotificationVariant.LUMO_ERROR);
    }
  }

  /** The request, or the parse violations together with Bean Validation's. */
  private ReminderRequest validRequest() {
    byField.values().forEach(f -> f.setInvalid(false));
    requestError.setText("");
    List<Violation> parseViolations = new java.util.ArrayList<>();
    ReminderRequest request = request(parseViolations);
    if (!parseViolations.isEmpty()) {
      throw new InvalidReminderException(parseViolations);
    }
    return request;
  }

  private void show(List<Violation> violations) {
    StringBuilder general = new StringBuilder();
    for (Violation v : violations) {
      HasValidation field = byField.get(v.field());
      if (field != null && ((Component) field).isVisible()) {
        field.setErrorMessage(v.message());
        field.setInvalid(true);
      } else {
        general.append(v).append(". ");
      }
    }
    requestError.setText(general.toString().trim());
  }

  private static TextField field(String label, String id) {
    TextField field = new TextField(label);
    field.setId(id);
    return field;
  }

  /** A text field's value, trimmed; {@code null} when blank. */
  private static String text(HasValue<?, String> field) {
    String value = field.getValue();
    return value == null || value.isBlank() ? null : value.trim();
  }
}
