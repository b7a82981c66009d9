package io.belfry.web.console.reminders;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.combobox.ComboBox;
import com.vaadin.flow.component.datetimepicker.DateTimePicker;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.notification.NotificationVariant;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.data.value.ValueChangeMode;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.Reminder;
import io.belfry.reminders.api.ReminderNotFoundException;
import io.belfry.reminders.api.ReminderPage;
import io.belfry.reminders.api.ReminderQuery;
import io.belfry.reminders.api.ReminderStatus;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.api.RemindersUnavailableException;
import io.belfry.web.console.ConfirmCancel;
import io.belfry.web.console.CurrentUser;
import io.belfry.web.console.MainLayout;
import io.belfry.web.console.Routes;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * Every reminder of every namespace, in a lazy grid that pages through the store with its keyset
 * cursor (only the visible rows are fetched, so a million reminders scroll like ten), with filters,
 * and — for admins — create, edit and cancel.
 */
@Route(value = Routes.REMINDERS, layout = MainLayout.class)
@PageTitle("Reminders · Belfry")
@Dependent
public class RemindersView extends VerticalLayout {

  private static final long serialVersionUID = 1L;
  static final DateTimeFormatter WHEN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  private final Reminders reminders;
  private final ReminderForm form;
  private final Grid<Reminder> grid = new Grid<>();
  private final TextField namespace = new TextField("Namespace");
  private final TextField prefix = new TextField("Key prefix");
  private final ComboBox<ReminderStatus> state = new ComboBox<>("State");
  private final DateTimePicker dueAfter = new DateTimePicker("Due after (UTC)");
  private final DateTimePicker dueBefore = new DateTimePicker("Due before (UTC)");
  private final Span filterError = new Span();

  @Inject
  public RemindersView(Reminders reminders, ReminderForm form) {
    this.reminders = reminders;
    this.form = form;
    setSizeFull();
    form.onSaved(this::refresh);
    add(toolbar(), filterError, grid);
    configureGrid();
    refresh();
  }

  private HorizontalLayout toolbar() {
    namespace.setId("filter-namespace");
    prefix.setId("filter-prefix");
    namespace.setValueChangeMode(ValueChangeMode.LAZY);
    prefix.setValueChangeMode(ValueChangeMode.LAZY);
    state.setItems(ReminderStatus.values());
    state.setClearButtonVisible(true);
    state.setId("filter-state");
    namespace.addValueChangeListener(e -> refresh());
    prefix.addValueChangeListener(e -> refresh());
    state.addValueChangeListener(e -> refresh());
    dueAfter.addValueChangeListener(e -> refresh());
    dueBefore.addValueChangeListener(e -> refresh());
    filterError.setId("filter-error");
    filterError.getStyle().set("color", "var(--lumo-error-text-color)");
    HorizontalLayout bar = new HorizontalLayout(namespace, prefix, state, dueAfter, dueBefore);
    bar.setAlignItems(FlexComponent.Alignment.BASELINE);
    bar.setWrap(true);
    if (CurrentUser.isAdmin()) {
      Button create = new Button("New reminder", e -> form.openNew());
      create.setId("new-reminder");
      create.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
      bar.add(create);
    }
    return bar;
  }

  private void configureGrid() {
    grid.setId("reminders");
    grid.addThemeVariants(GridVariant.LUMO_ROW_STRIPES, GridVariant.LUMO_COMPACT);
    grid.addComponentColumn(this::actions).setHeader("").setAutoWidth(true).setFrozen(true);
    grid.addColumn(Reminder::key).setHeader("Key").setAutoWidth(true).setFlexGrow(1);
    grid.addColumn(Reminder::namespace).setHeader("Namespace").setAutoWidth(true);
    grid.addColumn(ScheduleWords::of).setHeader("Schedule").setFlexGrow(1);
    grid.addColumn(r -> nextFire(r, Instant.now())).setHeader("Next fire").setAutoWidth(true);
    grid.addColumn(Reminder::occurrence).setHeader("Occurrence").setAutoWidth(true);
    grid.addColumn(r -> r.state().name()).setHeader("State").setAutoWidth(true);
    grid.addColumn(r -> r.delivery().name()).setHeader("Delivery").setAutoWidth(true);
    grid.addColumn(Reminder::version).setHeader("Version").setAutoWidth(true);
    grid.setEmptyStateText("No reminders match these filters.");
  }

  static String nextFire(Reminder r, Instant now) {
    if (r.nextFireAt() == null) {
      return "—";
    }
    return WHEN.format(r.nextFireAt()) + " (" + ScheduleWords.relative(r.nextFireAt(), now) + ")";
  }

  private HorizontalLayout actions(Reminder reminder) {
    Button history =
        new Button(
            "History",
            e ->
                getUI()
                    .ifPresent(
                        ui ->
                            ui.navigate(
                                Routes.HISTORY,
                                com.vaadin.flow.router.QueryParameters.simple(
                                    Map.of(
                                        "namespace",
                                        reminder.namespace(),
                                        "key",
                                        reminder.key())))));
    history.addThemeVariants(ButtonVariant.LUMO_SMALL, ButtonVariant.LUMO_TERTIARY);
    HorizontalLayout buttons = new HorizontalLayout(labelled(history, reminder));
    if (CurrentUser.isAdmin() && reminder.state() == ReminderStatus.PENDING) {
      Button edit = new Button("Edit", e -> form.openEdit(reminder));
      edit.addThemeVariants(ButtonVariant.LUMO_SMALL);
      Button cancel = new Button("Cancel", e -> confirmCancel(reminder));
      cancel.addThemeVariants(ButtonVariant.LUMO_SMALL, ButtonVariant.LUMO_ERROR);
      buttons.add(labelled(edit, reminder), labelled(cancel, reminder));
    }
    if (CurrentUser.isAdmin() && reminder.state() == ReminderStatus.DEAD_LETTER) {
      Button redeliver = new Button("Redeliver", e -> redeliver(reminder));
      redeliver.addThemeVariants(ButtonVariant.LUMO_SMALL);
      redeliver.setTooltipText("Last error: " + reminder.lastError());
      Button delete = new Button("Cancel", e -> confirmCancel(reminder));
      delete.addThemeVariants(ButtonVariant.LUMO_SMALL, ButtonVariant.LUMO_ERROR);
      buttons.add(labelled(redeliver, reminder), labelled(delete, reminder));
    }
    return buttons;
  }

  /**
   * Every row has the same three button texts; the accessible name says which reminder a button
   * acts on ("Edit default/invoice-42"), for screen readers and for the browser tests alike.
   */
  static Button labelled(Button button, Reminder reminder) {
    button.setAriaLabel(button.getText() + " " + reminder.namespace() + "/" + reminder.key());
    return button;
  }

  private void redeliver(Reminder reminder) {
    CurrentUser.requireAdmin();
    try {
      reminders.redeliver(reminder.namespace(), reminder.key());
      notify("Redelivering " + reminder.key(), NotificationVariant.LUMO_SUCCESS);
    } catch (ReminderNotFoundException e) {
      notify("It is no longer a dead letter", NotificationVariant.LUMO_CONTRAST);
    } catch (RemindersUnavailableException e) {
      notify("Not redelivered: " + e.getMessage(), NotificationVariant.LUMO_ERROR);
    }
    refresh();
  }

  private void confirmCancel(Reminder reminder) {
    ConfirmCancel.open(
        "Cancel " + reminder.namespace() + "/" + reminder.key() + "?",
        "It will not fire again. The audit keeps its history.",
        () -> {
          CurrentUser.requireAdmin();
          try {
            reminders.cancel(reminder.namespace(), reminder.key());
            notify("Cancelled " + reminder.key(), NotificationVariant.LUMO_SUCCESS);
          } catch (ReminderNotFoundException e) {
            notify("It had already fired or been cancelled", NotificationVariant.LUMO_CONTRAST);
          } catch (RemindersUnavailableException e) {
            notify(
                "Not cancelled: " + e.getMessage() + ". Check the reminder before trying again.",
                NotificationVariant.LUMO_ERROR);
          }
          refresh();
        });
  }

  private void refresh() {
    ReminderQuery query = query();
    if (query == null) {
      return;
    }
    KeysetPages<Reminder> pages =
        new KeysetPages<>(
            (cursor, limit) -> {
              ReminderPage page = reminders.list(query.withCursor(cursor).withLimit(limit));
              return new KeysetPages.Page<>(page.items(), page.next());
            });
    grid.setItems(q -> pages.window(q.getOffset(), q.getLimit()));
  }

  /** The filters as a query, or null (with the error shown) when they are not valid. */
  private ReminderQuery query() {
    ReminderQuery query =
        ReminderQuery.all()
            .withNamespace(blankToNull(namespace.getValue()))
            .withKeyPrefix(blankToNull(prefix.getValue()))
            .withState(state.getValue())
            .withDueAfter(
                dueAfter.getValue() == null ? null : dueAfter.getValue().toInstant(ZoneOffset.UTC))
            .withDueBefore(
                dueBefore.getValue() == null
                    ? null
                    : dueBefore.getValue().toInstant(ZoneOffset.UTC));
    try {
      reminders.list(query.withLimit(1));
      filterError.setText("");
      namespace.setInvalid(false);
      prefix.setInvalid(false);
      return query;
    } catch (InvalidReminderException e) {
      filterError.setText(
          e.getViolations().stream()
              .map(Object::toString)
              .reduce((a, b) -> a + "; " + b)
              .orElse(""));
      e.getViolations()
          .forEach(
              v -> {
                if (v.field().equals("namespace")) {
                  namespace.setInvalid(true);
                  namespace.setErrorMessage(v.message());
                } else if (v.field().equals("keyPrefix")) {
                  prefix.setInvalid(true);
                  prefix.setErrorMessage(v.message());
                }
              });
      grid.setItems(java.util.List.of());
      return null;
    }
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.trim();
  }

  static void notify(String text, NotificationVariant variant) {
    Notification notification = Notification.show(text, 4000, Notification.Position.BOTTOM_START);
    notification.addThemeVariants(variant);
  }
}
