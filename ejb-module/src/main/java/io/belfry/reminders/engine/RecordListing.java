package io.belfry.reminders.engine;

import io.belfry.reminders.api.RemindersUnavailableException;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.store.KeyIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@link ReminderEngine#list}: one page of reminders from this node's replica, in cache-key order.
 * Walks the ordered key index from the cursor (or the prefix) and reads each key whose summary
 * passes the state and due filters until the page is full: a page costs its own size, plus a walk
 * over the summaries the filters skip (no entry is read for those). A state or due filter that no
 * reminder of the namespace matches is answered from the index's counts, without a walk.
 */
final class RecordListing {

  /** The engine's read of one reminder (unavailability surfaces as the engine's exception). */
  private final Function<ReminderId, Optional<ReminderRecord>> reader;

  RecordListing(Function<ReminderId, Optional<ReminderRecord>> reader) {
    this.reader = reader;
  }

  RecordPage page(KeyIndex index, ListQuery query) {
    if (nothingCanMatch(index, query)) {
      return new RecordPage(List.of(), Optional.empty());
    }
    String prefix =
        query.namespace() == null
            ? null
            : ReminderId.cacheKeyPrefix(query.namespace())
                + (query.keyPrefix() == null ? "" : query.keyPrefix());
    String after = query.afterKey();
    NavigableMap<String, KeyIndex.Summary> candidates =
        after != null && (prefix == null || after.compareTo(prefix) >= 0)
            ? index.from(after, false)
            : index.from(prefix, true);
    List<ReminderRecord> items = new ArrayList<>();
    for (Map.Entry<String, KeyIndex.Summary> candidate : candidates.entrySet()) {
      String key = candidate.getKey();
      if (prefix != null && !key.startsWith(prefix)) {
        break;
      }
      if (!mayMatch(query, candidate.getValue())) {
        continue; // ruled out by its summary, without reading the entry
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

  /**
   * Whether the index's counts show that no reminder of the namespace is in the state or due in the
   * range asked for: then the page is empty, answered without walking the keys.
   */
  private static boolean nothingCanMatch(KeyIndex index, ListQuery query) {
    if (query.state() != null && index.count(query.namespace(), query.state()) == 0) {
      return true;
    }
    return (query.dueFrom() != null || query.dueTo() != null)
        && index.countDueAround(
                query.namespace(),
                query.dueFrom() == null ? null : query.dueFrom().toEpochMilli(),
                query.dueTo() == null ? null : query.dueTo().toEpochMilli())
            == 0;
  }

  /**
   * Whether the entry summarised may match: the summary is the key's last write this node saw, and
   * the entry is read (and matched again) only if it does.
   */
  private static boolean mayMatch(ListQuery query, KeyIndex.Summary summary) {
    return summary.state() != null && matches(query, summary.state(), summary.nextDueMillis());
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
    return matches(query, record.state(), record.nextDueMillis());
  }

  private static boolean matches(ListQuery query, ReminderState state, long nextDueMillis) {
    return (query.state() == null || state == query.state())
        && (query.dueFrom() == null || nextDueMillis >= query.dueFrom().toEpochMilli())
        && (query.dueTo() == null || nextDueMillis < query.dueTo().toEpochMilli());
  }
}
