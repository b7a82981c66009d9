package io.belfry.reminders.engine;

import io.belfry.reminders.model.ReminderRecord;
import java.util.List;
import java.util.Optional;

/**
 * One page of a listing.
 *
 * @param items in cache-key order
 * @param nextAfterKey the cursor for the next page; empty on the last page
 */
public record RecordPage(List<ReminderRecord> items, Optional<String> nextAfterKey) {

  public RecordPage {
    items = List.copyOf(items);
  }
}
