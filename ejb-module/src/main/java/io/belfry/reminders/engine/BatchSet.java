package io.belfry.reminders.engine;

import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.schedule.Clock;
import io.belfry.reminders.schedule.Occurrence;
import io.belfry.reminders.store.ReminderStore;
import io.belfry.reminders.store.StoreUnavailableException;
import io.belfry.reminders.store.StoredReminder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * {@link ReminderEngine#setAll}: the first write of every reminder of a batch is issued before any
 * is waited for, so that the batch shares the cluster's round trips instead of paying one
 * replicated write after the other. Then, in three steps:
 *
 * <ol>
 *   <li>every write settles, and every one that won is announced;
 *   <li>each that lost a race, or whose outcome the cluster could not tell, goes on alone as {@code
 *       set} does (reading an unconfirmed write back before writing again);
 *   <li>once one of those fails for good, the rest are not written again, only read back: a write
 *       that was applied after all is announced. Then the first failure is thrown.
 * </ol>
 *
 * <p>So nothing stored is left unannounced, and a batch that fails leaves each reminder either as
 * the batch set it or as it was, like a {@code set} that fails.
 */
final class BatchSet {

  private final ReminderEngine engine;
  private final ReminderStore store;
  private final Clock clock;

  BatchSet(ReminderEngine engine, ReminderStore store, Clock clock) {
    this.engine = engine;
    this.store = store;
    this.clock = clock;
  }

  /** One reminder of the batch: its first attempt and how it went. */
  private static final class Item {
    final ReminderSpec spec;
    final Occurrence first;
    SetResult attempt;
    CompletableFuture<Boolean> written;
    Throwable failure;
    SetResult result;

    Item(ReminderSpec spec, Occurrence first) {
      this.spec = spec;
      this.first = first;
    }

    boolean maybeStored() {
      return attempt != null && failure instanceof StoreUnavailableException;
    }
  }

  List<SetResult> setAll(List<ReminderSpec> specs) {
    List<Item> items = new ArrayList<>(specs.size());
    for (ReminderSpec spec : specs) {
      items.add(new Item(spec, engine.firstOccurrence(spec)));
    }
    long now = clock.millis();
    // sent together: one replicated command per group of writes, where the store can
    store.writeTogether(() -> items.forEach(item -> issue(item, now)));
    for (Item item : items) {
      try {
        if (item.written.join()) {
          item.result = engine.announced(item.attempt);
        }
      } catch (CompletionException e) {
        item.failure = e.getCause() != null ? e.getCause() : e;
      }
    }
    RuntimeException failed = null;
    for (Item item : items) {
      if (item.result != null) {
        continue;
      }
      if (failed != null) {
        readBack(item);
        continue;
      }
      try {
        if (item.failure != null && !(item.failure instanceof StoreUnavailableException)) {
          throw item.failure instanceof RuntimeException e
              ? e
              : new CompletionException(item.failure);
        }
        item.result = engine.write(item.spec, item.first, item.maybeStored() ? item.attempt : null);
      } catch (RuntimeException e) {
        failed = e;
        readBack(item);
      }
    }
    if (failed != null) {
      throw failed;
    }
    return items.stream().map(item -> item.result).toList();
  }

  /** The first attempt of one reminder, as {@code set} would make it, without waiting for it. */
  private void issue(Item item, long now) {
    try {
      Optional<StoredReminder> existing =
          engine.isSurelyNew(item.spec.id()) ? Optional.empty() : store.get(item.spec.id());
      Optional<SetResult> next = engine.nextVersion(item.spec, item.first, existing, now);
      if (next.isEmpty()) {
        // written by a node whose clock is ahead: the one-by-one path moves past it
        item.written = CompletableFuture.completedFuture(false);
        return;
      }
      item.attempt = next.get();
      ReminderRecord record = item.attempt.record();
      item.written =
          (existing.isEmpty()
                  ? store.putIfAbsentAsync(record).thenApply(Optional::isEmpty)
                  : store.replaceAsync(existing.get(), record))
              .toCompletableFuture();
    } catch (RuntimeException e) {
      // settled with the others: a failure here must not strand the writes already issued
      item.written = CompletableFuture.failedFuture(e);
    }
  }

  /** Announces a write whose outcome was unknown if it was stored after all. */
  private void readBack(Item item) {
    if (!item.maybeStored()) {
      return;
    }
    try {
      if (ReminderEngine.isStored(store.readBack(item.spec.id()), item.attempt.record())) {
        item.result = engine.announced(item.attempt);
      }
    } catch (RuntimeException e) {
      // still unknown, as after a set that fails: the caller is told the batch failed
    }
  }
}
