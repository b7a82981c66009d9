package io.belfry.reminders.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.schedule.TimeIndex.Entry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TimeIndexTest {

  @Test
  void tags_keptThroughMovesAndPutsWithoutOne() {
    TimeIndex index = new TimeIndex();
    Random random = new Random(7);
    for (int i = 0; i < 1_000; i++) {
      index.put("k" + i, 1, random.nextInt(10_000), i % 4);
    }
    index.put("k5", 2, 1); // moves to the top, keeps tag 1
    assertThat(index.get("k5")).get().extracting(Entry::tag).isEqualTo(1);
    List<Entry> due = index.pollDue(Long.MAX_VALUE, Integer.MAX_VALUE);
    assertThat(due).hasSize(1_000).extracting(Entry::dueMillis).isSorted();
    assertThat(due)
        .allSatisfy(
            e -> assertThat(e.tag()).isEqualTo(Integer.parseInt(e.cacheKey().substring(1)) % 4));
  }

  @Test
  void putIfNewer_keepsTheSameOrANewerVersion_andReplacesAnOlderOne() {
    TimeIndex index = new TimeIndex();
    index.put("a", 10, 5_000, 3);

    assertThat(index.putIfNewer("a", 9, 0, 3)).isFalse();
    assertThat(index.putIfNewer("a", 10, 0, 3)).isFalse();
    assertThat(index.get("a")).contains(new Entry("a", 10, 5_000, 3));
    assertThat(index.putIfNewer("a", 11, 100, 3)).isTrue();
    assertThat(index.putIfNewer("b", 1, 200, 3)).isTrue();
    assertThat(index.pollDue(Long.MAX_VALUE, 10))
        .containsExactly(new Entry("a", 11, 100, 3), new Entry("b", 1, 200, 3));
  }

  private final TimeIndex index = new TimeIndex();

  private static String id(int n) {
    return new ReminderId("app", "reminder-" + n).cacheKey();
  }

  @Test
  void nextDueMillis_empty_isEmpty() {
    assertThat(index.nextDueMillis()).isEmpty();
    assertThat(index.size()).isZero();
    assertThat(index.pollDue(Long.MAX_VALUE, 10)).isEmpty();
  }

  @Test
  void pollDue_mixedDueTimes_returnsDueOnesEarliestFirst() {
    index.put(id(1), 11, 300);
    index.put(id(2), 12, 100);
    index.put(id(3), 13, 200);
    index.put(id(4), 14, 400);

    List<Entry> due = index.pollDue(300, 10);

    assertThat(due)
        .containsExactly(
            new Entry(id(2), 12, 100), new Entry(id(3), 13, 200), new Entry(id(1), 11, 300));
    assertThat(index.size()).isEqualTo(1);
    assertThat(index.nextDueMillis()).isEqualTo(OptionalLong.of(400));
  }

  @Test
  void pollDue_budget_returnsAtMostBudgetAndKeepsTheRest() {
    for (int i = 0; i < 10; i++) {
      index.put(id(i), i, 1_000 + i);
    }

    List<Entry> first = index.pollDue(5_000, 3);
    List<Entry> none = index.pollDue(5_000, 0);
    List<Entry> rest = index.pollDue(5_000, 100);

    assertThat(first).extracting(Entry::dueMillis).containsExactly(1_000L, 1_001L, 1_002L);
    assertThat(none).isEmpty();
    assertThat(rest).hasSize(7);
    assertThat(index.isEmpty()).isTrue();
  }

  @Test
  void pollDue_negativeBudget_throws() {
    assertThatThrownBy(() -> index.pollDue(0, -1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void put_sameId_replacesEntry() {
    index.put(id(1), 1, 500);
    index.put(id(1), 2, 100);

    assertThat(index.size()).isEqualTo(1);
    assertThat(index.get(id(1))).contains(new Entry(id(1), 2, 100));
    assertThat(index.nextDueMillis()).isEqualTo(OptionalLong.of(100));

    index.put(id(1), 3, 900);
    assertThat(index.nextDueMillis()).isEqualTo(OptionalLong.of(900));
  }

  @Test
  void remove_withVersion_onlyRemovesThatVersion() {
    index.put(id(1), 7, 100);

    assertThat(index.remove(id(1), 6)).isFalse();
    assertThat(index.contains(id(1))).isTrue();
    assertThat(index.remove(id(1), 7)).isTrue();
    assertThat(index.contains(id(1))).isFalse();
    assertThat(index.remove(id(1), 7)).isFalse();
  }

  @Test
  void remove_absentId_returnsFalse() {
    index.put(id(1), 1, 1);

    assertThat(index.remove(id(2))).isFalse();
    assertThat(index.remove(id(1))).isTrue();
    assertThat(index.remove(id(1))).isFalse();
  }

  @ParameterizedTest
  @ValueSource(longs = {0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE / 2, Long.MAX_VALUE})
  void pollDue_edgeInstant_dueExactlyAtNow(long instant) {
    index.put(id(1), 1, instant);

    if (instant != Long.MIN_VALUE) {
      assertThat(index.pollDue(instant - 1, 10)).isEmpty();
    }
    assertThat(index.pollDue(instant, 10)).containsExactly(new Entry(id(1), 1, instant));
  }

  @Test
  void pollDue_dueInThePast_returnedAtOnce() {
    index.put(id(1), 1, -86_400_000L);
    index.put(id(2), 1, 0);

    assertThat(index.pollDue(1_795_000_000_000L, 10)).hasSize(2);
  }

  @Test
  void pollDue_manyWithSameDue_allReturnedAcrossBudgetedPolls() {
    int count = 10_000;
    for (int i = 0; i < count; i++) {
      index.put(id(i), i, 42);
    }

    List<Entry> all = new ArrayList<>();
    List<Entry> batch;
    while (!(batch = index.pollDue(42, 333)).isEmpty()) {
      assertThat(batch.size()).isLessThanOrEqualTo(333);
      all.addAll(batch);
    }

    assertThat(all).hasSize(count);
    assertThat(all).extracting(Entry::id).doesNotHaveDuplicates();
    assertThat(index.isEmpty()).isTrue();
  }

  @Test
  void clear_afterPuts_isEmptyAndReusable() {
    for (int i = 0; i < 100; i++) {
      index.put(id(i), i, i);
    }

    index.clear();

    assertThat(index.size()).isZero();
    assertThat(index.contains(id(5))).isFalse();
    index.put(id(5), 1, 1);
    assertThat(index.pollDue(1, 10)).containsExactly(new Entry(id(5), 1, 1));
  }

  /**
   * Random put/remove/poll/advance sequences against a reference model: a HashMap by id and a
   * TreeMap by due time. Ties in due time may come back in any order, so a poll is checked as "the
   * right number of entries, none later than any entry left behind that was also due".
   */
  @ParameterizedTest
  @ValueSource(ints = {2_000, 40_000}) // within one page of PagedArrays, and across many
  void fuzz_randomOperations_matchReferenceModel(int keySpace) {
    Random random = new Random(20261121L + keySpace);
    Map<String, Entry> byId = new HashMap<>();
    TreeMap<Long, TreeSet<String>> byDue = new TreeMap<>();
    long now = 0;

    for (int op = 0; op < 100_000; op++) {
      int choice = random.nextInt(100);
      String id = id(random.nextInt(keySpace));
      if (choice < 45 || (keySpace > 10_000 && op < 30_000)) {
        long version = random.nextInt(5);
        // Clustered due times make ties common; some are far out, some in the past.
        long due =
            switch (random.nextInt(4)) {
              case 0 -> now - random.nextInt(100);
              case 1 -> now + random.nextInt(50);
              case 2 -> now + random.nextInt(1_000_000);
              default -> (now / 10) * 10 + 10;
            };
        index.put(id, version, due);
        Entry old = byId.put(id, new Entry(id, version, due));
        if (old != null) {
          unindex(byDue, old);
        }
        byDue.computeIfAbsent(due, d -> new TreeSet<>()).add(id);
      } else if (choice < 60) {
        Entry old = byId.remove(id);
        assertThat(index.remove(id)).isEqualTo(old != null);
        if (old != null) {
          unindex(byDue, old);
        }
      } else if (choice < 70) {
        long version = random.nextInt(5);
        Entry old = byId.get(id);
        boolean expected = old != null && old.version() == version;
        assertThat(index.remove(id, version)).isEqualTo(expected);
        if (expected) {
          byId.remove(id);
          unindex(byDue, old);
        }
      } else if (choice < 85) {
        int budget = random.nextInt(20);
        List<Entry> polled = index.pollDue(now, budget);
        int dueCount = 0;
        for (TreeSet<String> ids : byDue.headMap(now, true).values()) {
          dueCount += ids.size();
        }
        assertThat(polled).hasSize(Math.min(budget, dueCount));
        assertThat(polled).extracting(Entry::dueMillis).isSorted();
        for (Entry entry : polled) {
          assertThat(byId.remove(entry.cacheKey())).isEqualTo(entry);
          unindex(byDue, entry);
        }
        if (!polled.isEmpty()) {
          long latestPolled = polled.get(polled.size() - 1).dueMillis();
          if (!byDue.isEmpty()) {
            assertThat(byDue.firstKey()).isGreaterThanOrEqualTo(latestPolled);
          }
        }
      } else {
        now += random.nextInt(random.nextInt(10) == 0 ? 100_000 : 20);
      }

      assertThat(index.size()).isEqualTo(byId.size());
      assertThat(index.nextDueMillis())
          .isEqualTo(byDue.isEmpty() ? OptionalLong.empty() : OptionalLong.of(byDue.firstKey()));
      if (op % 997 == 0) {
        for (Entry expected : byId.values()) {
          assertThat(index.get(expected.cacheKey())).contains(expected);
        }
      }
    }
  }

  private static void unindex(TreeMap<Long, TreeSet<String>> byDue, Entry entry) {
    TreeSet<String> ids = byDue.get(entry.dueMillis());
    ids.remove(entry.cacheKey());
    if (ids.isEmpty()) {
      byDue.remove(entry.dueMillis());
    }
  }

  @Test
  void memory_oneMillionEntries_reportsBytesPerEntry(TestReporter reporter) {
    int count = 1_000_000;
    // The keys exist anyway (the cache and the key index hold them); what the index adds is
    // measured alone.
    String[] ids = new String[count];
    for (int i = 0; i < count; i++) {
      ids[i] = new ReminderId("app", "invoice-2026-" + String.format("%017d", i)).cacheKey();
    }
    long before = usedHeap();
    TimeIndex big = new TimeIndex();
    long base = 1_795_000_000_000L;
    for (int i = 0; i < count; i++) {
      big.put(ids[i], i + 1, base + (i * 7919L) % 86_400_000L);
    }
    long after = usedHeap();

    double perEntry = (after - before) / (double) count;
    reporter.publishEntry("timeIndex.bytesPerEntry", String.format("%.1f", perEntry));
    System.out.printf(
        "TimeIndex: %d entries, %.1f bytes/entry (excluding keys)%n", big.size(), perEntry);
    assertThat(big.size()).isEqualTo(count);
    assertThat(big.pollDue(base, 10)).hasSize(1);
  }

  private static long usedHeap() {
    Runtime runtime = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    // Several collections settle the figure; the lowest reading is the live set.
    for (int i = 0; i < 5; i++) {
      System.gc();
      used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
    }
    return used;
  }
}
