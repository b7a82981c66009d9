package io.belfry.reminders.fire;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.schedule.SegmentedTimeIndex;
import io.belfry.reminders.schedule.TimeIndex;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class StandbyHintsTest {

  private final StandbyHints standby = new StandbyHints(true);
  private final BitSet noneOwned = new BitSet();

  @Test
  void fill_aNewerVersionWrittenWhileTheStepRead_isNotReplacedByTheOlderRead() {
    StandbyHints.FillStep step = standby.nextFillStep(noneOwned, 2, noneOwned);
    assertThat(step.segments()).isEqualTo(bits(0, 1));
    assertThat(standby.tracks(0)).as("writes of a segment being read are applied").isTrue();

    standby.apply(0, pending("a", 20, 2_000));
    standby.fill(step, List.of(List.of(pending("a", 10, 1_000)), List.of()));

    assertThat(handOver(bits(0))).containsExactly(new TimeIndex.Entry(key("a"), 20, 2_000, 0));
  }

  @Test
  void fill_aStepReadBeforeTheNodeReceivedState_isDropped() {
    StandbyHints.FillStep step = standby.nextFillStep(noneOwned, 1, noneOwned);
    standby.invalidate();
    standby.fill(step, List.of(List.of(pending("a", 10, 1_000))));

    assertThat(standby.size()).isZero();
    assertThat(standby.covered().isEmpty()).isTrue();
    assertThat(standby.nextFillStep(noneOwned, 1, noneOwned).segments())
        .as("the segment is read again")
        .isEqualTo(bits(0));
  }

  @Test
  void handOver_aSegmentNotCovered_isLeftToTheStoreRead() {
    StandbyHints.FillStep step = standby.nextFillStep(noneOwned, 2, noneOwned);
    standby.fill(step, List.of(List.of(pending("a", 10, 1_000)), List.of()));
    standby.invalidate();
    standby.fill(
        standby.nextFillStep(noneOwned, 1, noneOwned), List.of(List.of(pending("b", 10, 500))));

    SegmentedTimeIndex owned = new SegmentedTimeIndex();
    BitSet toRead = standby.handOver(bits(0, 1), owned);

    assertThat(owned.entries(0)).containsExactly(new TimeIndex.Entry(key("b"), 10, 500, 0));
    assertThat(owned.size()).isOne();
    assertThat(toRead).isEqualTo(bits(1));
    assertThat(standby.size()).isZero();
  }

  @Test
  void apply_aTombstone_dropsTheHintOfItsVersionButNotOfANewerOne() {
    standby.fill(
        standby.nextFillStep(noneOwned, 1, noneOwned), List.of(List.of(pending("a", 20, 1_000))));
    standby.apply(0, tombstone("a", 10));
    assertThat(standby.size()).isOne();
    standby.apply(0, tombstone("a", 30));
    assertThat(standby.size()).isZero();
  }

  @Test
  void keep_lostSegmentsAreCoveredAtOnce_andFollowTheirWrites() {
    standby.keep(3, index(3, new TimeIndex.Entry(key("a"), 10, 1_000, 3)));
    standby.coverLost(bits(3));
    standby.apply(3, pending("a", 11, 900));

    assertThat(handOver(bits(3))).containsExactly(new TimeIndex.Entry(key("a"), 11, 900, 3));
  }

  @Test
  void handOver_mergesWithWhatTheOwnedIndexHeldOfTheSegment_keepingTheNewerVersionOfEachKey() {
    standby.keep(
        2,
        index(
            2,
            new TimeIndex.Entry(key("a"), 10, 1_000, 2),
            new TimeIndex.Entry(key("b"), 10, 2_000, 2),
            new TimeIndex.Entry(key("c"), 10, 3_000, 2)));
    standby.coverLost(bits(2));
    SegmentedTimeIndex owned = new SegmentedTimeIndex();
    // put back by a run that took them before the segment was lost
    owned.put(key("a"), 11, 500, 2);
    owned.put(key("b"), 9, 100, 2);

    standby.handOver(bits(2), owned);

    assertThat(owned.pollDue(Long.MAX_VALUE, 10))
        .containsExactly(
            new TimeIndex.Entry(key("a"), 11, 500, 2),
            new TimeIndex.Entry(key("b"), 10, 2_000, 2),
            new TimeIndex.Entry(key("c"), 10, 3_000, 2));
  }

  @Test
  void disabled_keepsNothingAndReadsNothing() {
    StandbyHints off = new StandbyHints(false);
    off.keep(0, index(0, new TimeIndex.Entry(key("a"), 10, 1_000, 0)));
    off.coverLost(bits(0));
    assertThat(off.size()).isZero();
    assertThat(off.nextFillStep(noneOwned, 8, noneOwned)).isNull();
    assertThat(off.handOver(bits(0), new SegmentedTimeIndex())).isEqualTo(bits(0));
  }

  private List<TimeIndex.Entry> handOver(BitSet gained) {
    SegmentedTimeIndex owned = new SegmentedTimeIndex();
    assertThat(standby.handOver(gained, owned).isEmpty()).as("nothing left to read").isTrue();
    return owned.pollDue(Long.MAX_VALUE, Integer.MAX_VALUE);
  }

  private static TimeIndex index(int segment, TimeIndex.Entry... entries) {
    TimeIndex index = new TimeIndex();
    for (TimeIndex.Entry entry : entries) {
      index.put(entry.cacheKey(), entry.version(), entry.dueMillis(), segment);
    }
    return index;
  }

  private static OwnedIndex.Observed pending(String key, long version, long due) {
    return new OwnedIndex.Observed(key(key), ReminderId.of("ns", key), version, true, due, 0);
  }

  private static OwnedIndex.Observed tombstone(String key, long version) {
    return new OwnedIndex.Observed(key(key), ReminderId.of("ns", key), version, false, 0, 0);
  }

  private static String key(String key) {
    return ReminderId.of("ns", key).cacheKey();
  }

  private static BitSet bits(int... segments) {
    BitSet bits = new BitSet();
    for (int s : segments) {
      bits.set(s);
    }
    return bits;
  }
}
