package io.belfry.reminders.fire;

import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.placement.Ownership;
import io.belfry.reminders.schedule.TimeIndex;
import io.belfry.reminders.store.ReminderStore;
import io.belfry.reminders.store.StoredReminder;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The safety sweep: every scan interval, a window of {@link EngineSettings#sweepSegmentsPerScan()}
 * owned segments is compared with the index, in turn, so that a notification missed or applied out
 * of order costs at most one pass of the window over the segments. An entry whose version ({@link
 * ReminderCodec#versionOf}, no full decode) matches its hint is skipped, so the sweep decodes only
 * what is missing, changed, or a tombstone, which it hands to the {@link TombstonePurge} after the
 * TTL.
 *
 * <p>Not thread-safe: used only under the scheduler's lock.
 */
final class Sweep {

  // The scheduler's log category, as before these classes were split out of it.
  private static final Logger LOG = Logger.getLogger(Scheduler.class);

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

  /** Sweeps the owned segments of the next window; adds the tombstones past the TTL to expired. */
  void nextWindow(long now, List<StoredReminder> expired) {
    int count = ownership.segmentCount();
    BitSet window = new BitSet(count);
    int width = Math.min(settings.sweepSegmentsPerScan(), count);
    for (int i = 0; i < width; i++) {
      window.set((cursor + i) % count);
    }
    cursor = (cursor + width) % count;
    window.and(index.owned());
    if (!window.isEmpty()) {
      segments(now, window, expired);
    }
  }

  /** Sweeps {@code segments}; adds the tombstones past the TTL to expired. */
  void segments(long now, BitSet segments, List<StoredReminder> expired) {
    long ttl = settings.tombstoneTtl().toMillis();
    TimeIndex hints = index.hints();
    store.forEachLocal(
        segments,
        (key, value) -> {
          Optional<ReminderId> id = OwnedIndex.idOf(key);
          if (id.isEmpty()) {
            return;
          }
          try {
            Optional<TimeIndex.Entry> hint = hints.get(id.get());
            if (hint.isPresent() && hint.get().version() == ReminderCodec.versionOf(value)) {
              return;
            }
            ReminderRecord record = ReminderCodec.decode(id.get(), value);
            if (record.isTombstone()) {
              hint.ifPresent(h -> hints.remove(id.get()));
              if (record.updatedAtMillis() + ttl <= now) {
                expired.add(new StoredReminder(record, value));
              }
            } else if (!record.state().isArmed()) {
              hint.ifPresent(h -> hints.remove(id.get()));
            } else if (index.serves(id.get())) {
              if (hint.isEmpty() || hint.get().version() < record.version()) {
                hints.put(id.get(), record.version(), record.armAtMillis());
              }
            }
          } catch (RuntimeException e) {
            LOG.debugf(e, "BELFRY-0306 Sweep skipped unreadable %s", key);
          }
        });
  }
}
