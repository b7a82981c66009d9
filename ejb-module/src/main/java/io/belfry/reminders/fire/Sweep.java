package io.belfry.reminders.fire;

import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.placement.Ownership;
import io.belfry.reminders.schedule.TimeIndex;
import io.belfry.reminders.store.ReminderStore;
import io.belfry.reminders.store.StoredReminder;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The safety sweep: every scan interval, a window of {@link EngineSettings#sweepSegmentsPerScan()}
 * owned segments is compared with the index, in turn, so that a notification missed or applied out
 * of order costs at most one pass of the window over the segments. Tombstones past the TTL are
 * handed to the {@link TombstonePurge}.
 *
 * <p>The window is read without the scheduler's lock ({@link #read}), so that runs go on firing
 * while a large store is read, and compared with the index under it, a chunk at a time ({@link
 * #apply}). An entry whose version ({@link ReminderCodec#versionOf}, no full decode) matches its
 * hint is skipped, so the sweep decodes only what is missing, changed, or a tombstone. What was
 * read may be older than what the index has drained since: it never replaces or drops a newer hint.
 *
 * <p>{@link #nextWindow} and {@link #apply} are called only under the scheduler's lock; {@link
 * #read} without it.
 */
final class Sweep {

  // The scheduler's log category, as before these classes were split out of it.
  private static final Logger LOG = Logger.getLogger(Scheduler.class);

  /** How many entries read are compared with the index per hold of the lock. */
  static final int CHUNK = 4_096;

  /** One stored entry as read, its version read without decoding the rest. */
  record Read(ReminderId id, long version, byte[] value) {}

  private final ReminderStore store;
  private final EngineSettings settings;
  private final Ownership ownership;
  private final OwnedIndex index;
  private int cursor;

  Sweep(ReminderStore store, EngineSettings settings, Ownership ownership, OwnedIndex index) {
    this.store = store;
    this.settings = settings;
    this.ownership = ownership;
    this.index = index;
  }

  /** Under the lock: the owned segments of the next window, empty if it owns none of them. */
  BitSet nextWindow() {
    int count = ownership.segmentCount();
    BitSet window = new BitSet(count);
    int width = Math.min(settings.sweepSegmentsPerScan(), count);
    for (int i = 0; i < width; i++) {
      window.set((cursor + i) % count);
    }
    cursor = (cursor + width) % count;
    window.and(index.owned());
    return window;
  }

  /**
   * Without the lock: reads {@code segments} of this node's replica, handing what it read to {@code
   * chunks} {@link #CHUNK} entries at a time.
   */
  void read(BitSet segments, Consumer<List<Read>> chunks) {
    List<Read> chunk = new ArrayList<>(CHUNK);
    store.forEachLocal(
        segments,
        (key, value) -> {
          Optional<ReminderId> id = OwnedIndex.idOf(key);
          if (id.isEmpty()) {
            return;
          }
          try {
            chunk.add(new Read(id.get(), ReminderCodec.versionOf(value), value));
          } catch (RuntimeException e) {
            LOG.debugf(e, "BELFRY-0306 Sweep skipped unreadable %s", key);
            return;
          }
          if (chunk.size() == CHUNK) {
            chunks.accept(List.copyOf(chunk));
            chunk.clear();
          }
        });
    if (!chunk.isEmpty()) {
      chunks.accept(List.copyOf(chunk));
    }
  }

  /**
   * Under the lock: brings the index in line with entries read at or before {@code now}; adds the
   * tombstones past the TTL to expired.
   */
  void apply(List<Read> chunk, long now, List<StoredReminder> expired) {
    long ttl = settings.tombstoneTtl().toMillis();
    TimeIndex hints = index.hints();
    for (Read read : chunk) {
      ReminderId id = read.id();
      try {
        Optional<TimeIndex.Entry> hint = hints.get(id);
        if (hint.isPresent() && hint.get().version() >= read.version()) {
          // the same version, or a newer one drained after this entry was read
          continue;
        }
        ReminderRecord record = ReminderCodec.decode(id, read.value());
        if (record.isTombstone()) {
          hint.ifPresent(h -> hints.remove(id, h.version()));
          if (record.updatedAtMillis() + ttl <= now) {
            expired.add(new StoredReminder(record, read.value()));
          }
        } else if (!record.state().isArmed()) {
          hint.ifPresent(h -> hints.remove(id, h.version()));
        } else if (index.serves(id)) {
          hints.put(id, record.version(), record.armAtMillis());
        }
      } catch (RuntimeException e) {
        LOG.debugf(e, "BELFRY-0306 Sweep skipped unreadable %s", id.cacheKey());
      }
    }
  }
}
