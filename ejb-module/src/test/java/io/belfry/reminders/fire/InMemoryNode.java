package io.belfry.reminders.fire;

import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.placement.ChangeFeed;
import io.belfry.reminders.placement.ChangeSink;
import io.belfry.reminders.placement.Ownership;
import io.belfry.reminders.store.ReminderStore;
import io.belfry.reminders.store.StoredReminder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * A single node without Infinispan: a map as store that notifies its feed on every write (as the
 * cache's post events do), owning every segment (one unless a test spreads keys over more). For
 * unit tests of the scheduler and engine.
 */
final class InMemoryNode implements ReminderStore, Ownership, ChangeFeed {

  private final Map<String, byte[]> entries = new TreeMap<>();
  private volatile ChangeSink sink;

  @Override
  public synchronized Optional<StoredReminder> get(ReminderId id) {
    byte[] value = entries.get(id.cacheKey());
    return value == null
        ? Optional.empty()
        : Optional.of(new StoredReminder(ReminderCodec.decode(id, value), value));
  }

  @Override
  public Optional<StoredReminder> putIfAbsent(ReminderRecord record) {
    byte[] value = ReminderCodec.encode(record);
    synchronized (this) {
      Optional<StoredReminder> existing = get(record.id());
      if (existing.isPresent()) {
        return existing;
      }
      entries.put(record.id().cacheKey(), value);
    }
    notifyWritten(record.id().cacheKey(), value);
    return Optional.empty();
  }

  @Override
  public boolean replace(StoredReminder expected, ReminderRecord next) {
    byte[] value = ReminderCodec.encode(next);
    String key = next.id().cacheKey();
    synchronized (this) {
      if (!Arrays.equals(entries.get(key), ReminderCodec.encode(expected.record()))) {
        return false;
      }
      entries.put(key, value);
    }
    notifyWritten(key, value);
    return true;
  }

  /**
   * Where {@link #replaceAsync} and {@link #putIfAbsentAsync} run their writes; {@code null} (the
   * default): in the caller, as a blocking store would. Set by tests of group commit and batch sets
   * to make writes overlap.
   */
  volatile Executor commitExecutor;

  @Override
  public CompletionStage<Boolean> replaceAsync(StoredReminder expected, ReminderRecord next) {
    Executor executor = commitExecutor;
    return executor == null
        ? ReminderStore.super.replaceAsync(expected, next)
        : CompletableFuture.supplyAsync(() -> replace(expected, next), executor);
  }

  @Override
  public CompletionStage<Optional<StoredReminder>> putIfAbsentAsync(ReminderRecord record) {
    Executor executor = commitExecutor;
    return executor == null
        ? ReminderStore.super.putIfAbsentAsync(record)
        : CompletableFuture.supplyAsync(() -> putIfAbsent(record), executor);
  }

  @Override
  public boolean remove(StoredReminder expected) {
    String key = expected.record().id().cacheKey();
    synchronized (this) {
      if (!Arrays.equals(entries.get(key), ReminderCodec.encode(expected.record()))) {
        return false;
      }
      entries.remove(key);
    }
    ChangeSink s = sink;
    if (s != null) {
      s.removed(key);
    }
    return true;
  }

  @Override
  public void forEachLocal(BitSet segments, EntryVisitor visitor) {
    beforeScan.accept(segments);
    Map<String, byte[]> copy;
    synchronized (this) {
      copy = new TreeMap<>(entries);
    }
    copy.forEach(
        (key, value) -> {
          if (segments == null || segments.get(segmentOf(key))) {
            visitor.visit(key, value);
          }
        });
  }

  /** The store's directory, for {@link #fileBesideStore}; none unless a test gives one. */
  volatile Path storeDirectory;

  @Override
  public Optional<Path> fileBesideStore(String name) {
    return Optional.ofNullable(storeDirectory).map(directory -> directory.resolve(name));
  }

  /** How many segments the keys hash to; one unless a test spreads them. */
  volatile int segments = 1;

  /** Called with the segments of each scan before it reads them ({@code null}: all). */
  volatile Consumer<BitSet> beforeScan = s -> {};

  synchronized int size() {
    return entries.size();
  }

  /** Whether this node owns the single segment; flipped by tests, with or without notice. */
  volatile boolean owner = true;

  @Override
  public boolean isPrimaryOwner(String cacheKey) {
    return owner;
  }

  @Override
  public int segmentOf(String cacheKey) {
    return Math.floorMod(cacheKey.hashCode(), segments);
  }

  @Override
  public int segmentCount() {
    return segments;
  }

  @Override
  public BitSet primarySegments() {
    BitSet all = new BitSet();
    if (owner) {
      all.set(0, segments);
    }
    return all;
  }

  /** The node's name, as a lease holder; the same after a "restart" (a new engine on this node). */
  volatile String name = "node-a";

  @Override
  public String localNode() {
    return name;
  }

  @Override
  public void subscribe(ChangeSink sink) {
    this.sink = sink;
  }

  @Override
  public void unsubscribe() {
    sink = null;
  }

  /** Every record written, in order, whether or not a sink is subscribed. */
  final List<ReminderRecord> history = new CopyOnWriteArrayList<>();

  private void notifyWritten(String key, byte[] value) {
    history.add(ReminderCodec.decode(ReminderId.fromCacheKey(key), value));
    ChangeSink s = sink;
    if (s != null) {
      s.written(key, value);
    }
  }
}
