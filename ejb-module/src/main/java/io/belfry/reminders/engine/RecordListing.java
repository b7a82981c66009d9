package io.belfry.reminders.engine;

import io.belfry.reminders.api.RemindersUnavailableException;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.store.KeyIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@link ReminderEngine#list}: one page of reminders from this node's replica, in cache-key order.
 * Walks the ordered key index from the cursor (or the prefix) and reads each key until the page is
 * full: a page costs its own size, plus whatever the state and due filters skip.
 */
final class RecordListing {

  /** The engine's read of one reminder (unavailability surfaces as the engine's exception). */
  private final Function<ReminderId, Optional<ReminderRecord>> reader;

  RecordListing(Function<ReminderId, Optional<ReminderRecord>> reader) {
    this.reader = reader;
  }

  RecordPage page(KeyIndex index, ListQuery query) {
    String prefix =
        query.namespace() == null
            ? null
            : ReminderId.cacheKeyPrefix(query.namespace())
                + (query.keyPrefix() == null ? "" : query.keyPrefix());
    String after = query.afterKey();
    NavigableSet<String> candidates =
        after != null && (prefix == null || after.compareTo(prefix) >= 0)
            ? index.from(after, false)
            : index.from(prefix, true);
    List<ReminderRecord> items = new ArrayList<>();
    for (String key : candidates) {
      if (prefix != null && !key.startsWith(prefix)) {
        break;
      }
      Optional<ReminderRecord> record = read(key);
      if (record.isPresent() && matches(query, record.get())) {
        items.add(record.get());
        if (items.size() > query.limit()) {
          items = items.subList(0, query.limit());
          return new RecordPage(items, Optional.of(items.get(items.size() - 1).id().cacheKey()));
        }
      }
    }
    return new RecordPage(items, Optional.empty());
  }

  /** The record stored under {@code cacheKey}; empty if gone or not a reminder. */
  private Optional<ReminderRecord> read(String cacheKey) {
    try {
      return reader.apply(ReminderId.fromCacheKey(cacheKey));
    } catch (RemindersUnavailableException e) {
      throw e;
    } catch (RuntimeException e) {
      // not a reminder's key, or an entry that does not decode: not part of any listing
      return Optional.empty();
    }
  }

  private static boolean matches(ListQuery query, ReminderRecord record) {
    return (query.state() == null || record.state() == query.state())
        && (query.dueFrom() == null || record.nextDueMillis() >= query.dueFrom().toEpochMilli())
        && (query.dueTo() == null || record.nextDueMillis() < query.dueTo().toEpochMilli());
  }
}
