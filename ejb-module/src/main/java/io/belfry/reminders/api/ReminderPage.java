package io.belfry.reminders.api;

import java.util.List;

/**
 * One page of {@link Reminders#list(ReminderQuery)}.
 *
 * @param items at most the query's limit, in key order
 * @param next the cursor of the following page, for {@link ReminderQuery#withCursor(String)};
 *     {@code null} on the last page
 */
public record ReminderPage(List<Reminder> items, String next) {

  public ReminderPage {
    items = List.copyOf(items);
  }

  public boolean hasNext() {
    return next != null;
  }
}
