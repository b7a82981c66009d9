package io.belfry.reminders.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.schedule.TimeIndex.Entry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SegmentedTimeIndexTest {

  private static final int SEGMENTS = 16;

  private final SegmentedTimeIndex index = new SegmentedTimeIndex();

  @Test
  void pollDue_returnsEarliestFirstAcrossSegments_eachTaggedWithItsSegment() {
    index.put("a", 1, 300, 5);
    index.put("b", 1, 100, 9);
    index.put("c", 1, 200, 5);
    index.put("d", 1, 900, 0);

    assertThat(index.nextDueMillis()).hasValue(100);
    assertThat(index.pollDue(500, 10))
        .containsExactly(
            new Entry("b", 1, 100, 9), new Entry("c", 1, 200, 5), new Entry("a", 1, 300, 5));
    assertThat(index.size()).isOne();
    assertThat(index.nextDueMillis()).hasValue(900);
  }

  @Test
  void detach_takesAWholeSegmentOut_andAttachPutsItBackAsItIs() {
    for (int i = 0; i < 1_000; i++) {
      index.put("k" + i, 1, 10_000 - i, i % 4);
    }

    TimeIndex segmentTwo = index.detach(2);

    assertThat(segmentTwo.size()).isEqualTo(250);
    assertThat(index.size()).isEqualTo(750);
    assertThat(index.contains("k2", 2)).isFalse();
    assertThat(index.detach(2)).as("nothing left of it").isNull();
    index.attachNewer(2, segmentTwo);
    assertThat(index.size()).isEqualTo(1_000);
    assertThat(index.get("k2", 2)).contains(new Entry("k2", 1, 9_998, 2));
    assertThat(index.nextDueMillis()).hasValue(9_001);
  }

  /** Random operations against a plain map of the same entries. */
  @Test
  void randomOperations_agreeWithAModel() {
    Random random = new Random(42);
    Map<String, Entry> model = new HashMap<>();
    Map<Integer, TimeIndex> detached = new HashMap<>();
    Map<Integer, Map<String, Entry>> detachedModel = new HashMap<>();
    long now = 0;
    for (int op = 0; op < 100_000; op++) {
      String key = "k" + random.nextInt(2_000);
      int segment = Math.floorMod(key.hashCode(), SEGMENTS);
      int choice = random.nextInt(100);
      if (choice < 35) {
        long version = random.nextInt(20);
        long due = now + random.nextInt(5_000);
        index.put(key, version, due, segment);
        model.put(key, new Entry(key, version, due, segment));
      } else if (choice < 50) {
        long version = random.nextInt(20);
        long due = now + random.nextInt(5_000);
        Entry held = model.get(key);
        boolean expected = held == null || held.version() < version;
        assertThat(index.putIfNewer(key, version, due, segment)).isEqualTo(expected);
        if (expected) {
          model.put(key, new Entry(key, version, due, segment));
        }
      } else if (choice < 60) {
        assertThat(index.remove(key, segment)).isEqualTo(model.remove(key) != null);
      } else if (choice < 75) {
        int budget = random.nextInt(30);
        List<Entry> due = new ArrayList<>();
        for (Entry entry : model.values()) {
          if (entry.dueMillis() <= now) {
            due.add(entry);
          }
        }
        List<Entry> polled = index.pollDue(now, budget);
        assertThat(polled).hasSize(Math.min(budget, due.size()));
        assertThat(polled).extracting(Entry::dueMillis).isSorted();
        for (Entry entry : polled) {
          assertThat(model.remove(entry.cacheKey())).isEqualTo(entry);
        }
        long latest = polled.isEmpty() ? Long.MIN_VALUE : polled.get(polled.size() - 1).dueMillis();
        assertThat(model.values())
            .allSatisfy(e -> assertThat(e.dueMillis()).isGreaterThanOrEqualTo(latest));
      } else if (choice < 82) {
        if (!detached.containsKey(segment)) {
          TimeIndex out = index.detach(segment);
          Map<String, Entry> outModel = new HashMap<>();
          model.values().removeIf(e -> e.tag() == segment && outModel.put(e.cacheKey(), e) == null);
          assertThat(out == null ? List.<Entry>of() : out.entries())
              .containsExactlyInAnyOrderElementsOf(outModel.values());
          detached.put(segment, out);
          detachedModel.put(segment, outModel);
        }
      } else if (choice < 90) {
        if (detached.containsKey(segment)) {
          index.attachNewer(segment, detached.remove(segment));
          for (Entry entry : detachedModel.remove(segment).values()) {
            Entry held = model.get(entry.cacheKey());
            if (held == null || held.version() < entry.version()) {
              model.put(entry.cacheKey(), entry);
            }
          }
        }
      } else {
        now += random.nextInt(random.nextInt(10) == 0 ? 5_000 : 50);
      }

      assertThat(index.size()).isEqualTo(model.size());
      assertThat(index.nextDueMillis())
          .isEqualTo(
              model.values().stream()
                  .map(Entry::dueMillis)
                  .min(Comparator.naturalOrder())
                  .map(OptionalLong::of)
                  .orElse(OptionalLong.empty()));
      if (op % 997 == 0) {
        for (Entry expected : model.values()) {
          assertThat(index.get(expected.cacheKey(), expected.tag())).contains(expected);
        }
      }
    }
  }
}
