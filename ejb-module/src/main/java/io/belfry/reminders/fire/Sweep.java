package io.belfry.reminders.fire;

import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.placement.Ownership;
import io.belfry.reminders.schedule.SegmentedTimeIndex;
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

  /**
   * About how many entries one window reads: it spans fewer segments than {@link
   * EngineSettings#sweepSegmentsPerScan()} (at least one) once the last windows showed the segments
   * hold more than this many in all. A store of a few thousand reminders is swept in full every
   * {@code segmentCount / sweepSegmentsPerScan} intervals, as before; a store of millions in more
   * intervals, at a bounded cost per interval: every read entry is decoded from the cache's storage
   * (on WildFly, unmarshalled), and a window of an eighth of a million-entry store each second took
   * a steady share of a node's CPU.
   */
  static final int ENTRIES_PER_WINDOW = 8_192;

  /** One stored entry as read, its version read without decoding the rest. */
  record Read(String cacheKey, ReminderId id, long version, byte[] value, int segment) {}

  private final ReminderStore store;
  private final EngineSettings settings;
  private final Ownership ownership;
  private final OwnedIndex index;
  private int cursor;

  /** Entries per segment in the windows read so far (a moving average); 0 before the first. */
  private double entriesPerSegment;

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
    int width = Math.min(width(), count);
    for (int i = 0; i < width; i++) {
      window.set((cursor + i) % count);
    }
    cursor = (cursor + width) % count;
    window.and(index.owned());
    return window;
  }

  /** How many segments the next window spans; see {@link #ENTRIES_PER_WINDOW}. */
  int width() {
    int most = settings.sweepSegmentsPerScan();
    if (entriesPerSegment * most <= ENTRIES_PER_WINDOW) {
      return most;
    }
    return Math.max(1, (int) (ENTRIES_PER_WINDOW / entriesPerSegment));
  }

  /** Under the lock: {@code segments} segments were read, holding {@code entries} in all. */
  void observed(int segments, long entries) {
    if (segments <= 0) {
      return;
    }
    double perSegment = (double) entries / segments;
    // a moving average: segments differ, and one window is a small sample of them
    entriesPerSegment =
        entriesPerSegment == 0 ? perSegment : 0.75 * entriesPerSegment + 0.25 * perSegment;
  }

  /**
   * Without the lock: reads {@code segments} of this node's replica, handing what it read to {@code
   * chunks} {@link #CHUNK} entries at a time; returns how many entries it visited.
   */
  long read(BitSet segments, Consumer<List<Read>> chunks) {
    List<Read> chunk = new ArrayList<>(CHUNK);
    long[] visited = {0};
    // Segment by segment, so that what it arms is tagged with its segment (see OwnedIndex).
    store.forEachLocalBySegment(
        segments,
        (segment, key, value) -> {
          visited[0]++;
          Optional<ReminderId> id = OwnedIndex.idOf(key);
          if (id.isEmpty()) {
            return;
          }
          try {
            chunk.add(new Read(key, id.get(), ReminderCodec.versionOf(value), value, segment));
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
    return visited[0];
  }

  /**
   * Under the lock: brings the index in line with entries read at or before {@code now}; adds the
   * tombstones past the TTL to expired.
   */
  void apply(List<Read> chunk, long now, List<StoredReminder> expired) {
    long ttl = settings.tombstoneTtl().toMillis();
    SegmentedTimeIndex hints = index.hints();
    for (Read read : chunk) {
      ReminderId id = read.id();
      try {
        Optional<TimeIndex.Entry> hint = hints.get(read.cacheKey(), read.segment());
        if (hint.isPresent() && hint.get().version() >= read.version()) {
          // the same version, or a newer one drained after this entry was read
          continue;
        }
        ReminderRecord record = ReminderCodec.decode(id, read.value());
        if (record.isTombstone() && record.updatedAtMillis() + ttl <= now) {
          expired.add(new StoredReminder(record, read.value()));
        }
        boolean armed = record.state().isArmed();
        if (!armed || index.serves(id)) {
          index.apply(
              new OwnedIndex.Observed(
                  read.cacheKey(),
                  id,
                  record.version(),
                  armed,
                  record.armAtMillis(),
                  read.segment()));
        }
      } catch (RuntimeException e) {
        LOG.debugf(e, "BELFRY-0306 Sweep skipped unreadable %s", read.cacheKey());
      }
    }
  }
}
