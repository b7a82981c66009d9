package io.belfry.reminders.fire;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.schedule.TimeIndex;
import io.belfry.reminders.store.MapReplica;
import io.belfry.reminders.store.StoredReminder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sweep compares entries it read without the scheduler's lock; by the time it compares them the
 * index may have drained newer writes of the same keys, which it must keep.
 */
class SweepTest {

  private static final long NOW = 1_800_000_000_000L;
  private static final ReminderId ID = ReminderId.of("ns", "k");

  /** The test key's segment: the node has one until a test spreads the keys. */
  private static final int SEGMENT = 0;

  private final InMemoryNode node = new InMemoryNode();
  private final OwnedIndex index = new OwnedIndex(node, node, namespace -> true, true);
  private final Sweep sweep = new Sweep(node, EngineSettings.DEFAULTS, node, index);
  private final List<StoredReminder> expired = new ArrayList<>();

  @Test
  void aTombstoneReadBeforeTheKeyWasSetAgain_leavesTheNewHint() {
    // read: the tombstone of version 1, fired long ago; drained since: version 2, set again
    index.hints().put(ID.cacheKey(), 2, NOW + 60_000, SEGMENT);

    sweep.apply(
        List.of(read(pending(1).tombstone(ReminderState.FIRED, NOW - 7_200_000))), NOW, expired);

    assertThat(index.hints().get(ID.cacheKey(), SEGMENT))
        .contains(new TimeIndex.Entry(ID.cacheKey(), 2, NOW + 60_000, SEGMENT));
    assertThat(expired).as("not purged: the key holds version 2 now").isEmpty();
  }

  @Test
  void anOlderPendingVersionRead_doesNotReplaceTheNewerHint() {
    index.hints().put(ID.cacheKey(), 2, NOW + 60_000, SEGMENT);

    sweep.apply(List.of(read(pending(1))), NOW, expired);

    assertThat(index.hints().get(ID.cacheKey(), SEGMENT))
        .contains(new TimeIndex.Entry(ID.cacheKey(), 2, NOW + 60_000, SEGMENT));
  }

  @Test
  void aPendingVersionTheIndexMissed_isArmed_andANewerTombstoneDropsAnOlderHint() {
    sweep.apply(List.of(read(pending(3))), NOW, expired);
    assertThat(index.hints().get(ID.cacheKey(), SEGMENT))
        .contains(new TimeIndex.Entry(ID.cacheKey(), 3, NOW + 1_000, SEGMENT));

    ReminderRecord cancelled = pending(4).tombstone(ReminderState.CANCELLED, NOW);
    sweep.apply(List.of(read(cancelled)), NOW, expired);
    assertThat(index.hints().contains(ID.cacheKey(), SEGMENT)).isFalse();
  }

  @Test
  void aWindowSpansEverySegmentItMay_untilTheSegmentsHoldMoreThanAWindowsWorth() {
    int most = EngineSettings.DEFAULT_SWEEP_SEGMENTS_PER_SCAN;
    assertThat(sweep.width()).as("nothing read yet").isEqualTo(most);

    sweep.observed(most, 10L * most); // ten entries per segment: a small store
    assertThat(sweep.width()).isEqualTo(most);

    for (int i = 0; i < 20; i++) {
      sweep.observed(most, 4_000L * most); // a million entries over 256 segments
    }
    assertThat(sweep.width())
        .as("about %d entries per window", Sweep.ENTRIES_PER_WINDOW)
        .isEqualTo(Sweep.ENTRIES_PER_WINDOW / 4_000);

    for (int i = 0; i < 20; i++) {
      sweep.observed(1, 40_000L); // ten million: never less than one segment
    }
    assertThat(sweep.width()).isEqualTo(1);
  }

  @Test
  void nextWindow_spansTheWidth_ofTheOwnedSegments() {
    node.segments = 256;
    index.takeOwnership();
    assertThat(sweep.nextWindow().cardinality())
        .isEqualTo(EngineSettings.DEFAULT_SWEEP_SEGMENTS_PER_SCAN);
    for (int i = 0; i < 20; i++) {
      sweep.observed(32, 32 * 4_096L);
    }
    assertThat(sweep.nextWindow().cardinality()).isEqualTo(2);
  }

  /** The test key pending at {@code version}, due a second after {@link #NOW}. */
  private static ReminderRecord pending(long version) {
    return MapReplica.record(ID.namespace(), ID.key(), ReminderState.PENDING, NOW + 1_000)
        .withNext(version, NOW + 1_000, 1, NOW - 60_000);
  }

  private static Sweep.Read read(ReminderRecord record) {
    return new Sweep.Read(
        ID.cacheKey(), ID, record.version(), ReminderCodec.encode(record), SEGMENT);
  }
}
