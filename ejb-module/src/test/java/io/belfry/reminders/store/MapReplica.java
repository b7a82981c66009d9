package io.belfry.reminders.store;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.Schedule;
import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.placement.Ownership;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * A node's replica as a map, for tests of what reads it ({@link KeyIndex}, the listing): only
 * {@code get} and {@code forEachLocal} are served, and nothing notifies a feed, so a test applies
 * each change to the map and tells the index itself, in the order it wants to try. Counts its
 * reads. Four segments, by the key's hash.
 */
public final class MapReplica implements ReminderStore, Ownership {

  public static final long DUE = 1_795_000_900_000L;

  /** The entries, as the test sets them. */
  public final Map<String, byte[]> entries = new ConcurrentSkipListMap<>();

  /** How many single-key reads ({@link #get}) were made. */
  public final AtomicInteger gets = new AtomicInteger();

  /** The segments of each scan ({@link #forEachLocal}) made, {@code null} for all, in order. */
  public final List<BitSet> scans = new CopyOnWriteArrayList<>();

  /** Called before a scan visits each entry, with the key and the value it is about to visit. */
  public volatile BiConsumer<String, byte[]> beforeVisit = (key, value) -> {};

  /** A one-shot reminder in {@code state}, due at {@code dueMillis}. */
  public static ReminderRecord record(
      String namespace, String key, ReminderState state, long dueMillis) {
    return new ReminderRecord(
        ReminderId.of(namespace, key),
        1,
        state,
        new Schedule.Once(),
        dueMillis,
        1,
        null,
        null,
        MisfirePolicy.FIRE_ONCE,
        null,
        DeliveryMode.AT_MOST_ONCE,
        null,
        null,
        DUE - 60_000,
        DUE - 60_000);
  }

  /** Stores {@code record} and returns its encoded value (for telling an index). */
  public byte[] store(ReminderRecord record) {
    byte[] encoded = ReminderCodec.encode(record);
    entries.put(record.id().cacheKey(), encoded);
    return encoded;
  }

  @Override
  public Optional<StoredReminder> get(ReminderId id) {
    gets.incrementAndGet();
    byte[] value = entries.get(id.cacheKey());
    return value == null
        ? Optional.empty()
        : Optional.of(new StoredReminder(ReminderCodec.decode(id, value), value));
  }

  @Override
  public void forEachLocal(BitSet segments, EntryVisitor visitor) {
    scans.add(segments == null ? null : (BitSet) segments.clone());
    List<Map.Entry<String, byte[]>> snapshot = new ArrayList<>(entries.entrySet());
    for (Map.Entry<String, byte[]> entry : snapshot) {
      if (segments != null && !segments.get(segmentOf(entry.getKey()))) {
        continue;
      }
      beforeVisit.accept(entry.getKey(), entry.getValue());
      visitor.visit(entry.getKey(), entry.getValue());
    }
  }

  @Override
  public Optional<StoredReminder> putIfAbsent(ReminderRecord record) {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean replace(StoredReminder expected, ReminderRecord next) {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean remove(StoredReminder expected) {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean acceptsWrites() {
    return true;
  }

  @Override
  public boolean isPrimaryOwner(String cacheKey) {
    return true;
  }

  @Override
  public int segmentOf(String cacheKey) {
    return Math.floorMod(cacheKey.hashCode(), segmentCount());
  }

  @Override
  public int segmentCount() {
    return 4;
  }

  @Override
  public BitSet primarySegments() {
    BitSet all = new BitSet();
    all.set(0, segmentCount());
    return all;
  }

  @Override
  public String localNode() {
    return "map-replica";
  }
}
