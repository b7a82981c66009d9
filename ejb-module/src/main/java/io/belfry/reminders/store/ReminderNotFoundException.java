package io.belfry.reminders.store;

import io.belfry.reminders.model.ReminderId;

/** No live reminder under an id: it never existed, already fired, or was cancelled. */
public class ReminderNotFoundException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient ReminderId id;

  public ReminderNotFoundException(ReminderId id) {
    super("No pending reminder " + id.cacheKey());
    this.id = id;
  }

  public ReminderId id() {
    return id;
  }
}
