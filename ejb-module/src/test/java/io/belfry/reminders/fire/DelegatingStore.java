package io.belfry.reminders.fire;

import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.store.ReminderStore;
import io.belfry.reminders.store.StoredReminder;
import java.util.BitSet;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/** A store that passes everything to another; tests override what they make go wrong. */
class DelegatingStore implements ReminderStore {

  private final ReminderStore delegate;

  DelegatingStore(ReminderStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public Optional<StoredReminder> get(ReminderId id) {
    return delegate.get(id);
  }

  @Override
  public Optional<StoredReminder> putIfAbsent(ReminderRecord record) {
    return delegate.putIfAbsent(record);
  }

  @Override
  public CompletionStage<Optional<StoredReminder>> putIfAbsentAsync(ReminderRecord record) {
    return delegate.putIfAbsentAsync(record);
  }

  @Override
  public boolean replace(StoredReminder expected, ReminderRecord next) {
    return delegate.replace(expected, next);
  }

  @Override
  public CompletionStage<Boolean> replaceAsync(StoredReminder expected, ReminderRecord next) {
    return delegate.replaceAsync(expected, next);
  }

  @Override
  public boolean remove(StoredReminder expected) {
    return delegate.remove(expected);
  }

  @Override
  public void forEachLocal(BitSet segments, EntryVisitor visitor) {
    delegate.forEachLocal(segments, visitor);
  }

  @Override
  public boolean acceptsWrites() {
    return delegate.acceptsWrites();
  }

  @Override
  public boolean readsThroughToDisk() {
    return delegate.readsThroughToDisk();
  }
}
