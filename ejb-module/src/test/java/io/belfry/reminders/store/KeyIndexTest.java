package io.belfry.reminders.store;

import static io.belfry.reminders.model.ReminderState.CANCELLED;
import static io.belfry.reminders.model.ReminderState.FIRED;
import static io.belfry.reminders.model.ReminderState.PENDING;
import static io.belfry.reminders.store.MapReplica.DUE;
import static io.belfry.reminders.store.MapReplica.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class KeyIndexTest {

  private final MapReplica replica = new MapReplica();
  private final KeyIndex index = new KeyIndex(replica, replica);

  private void write(String namespace, String key, ReminderState state) {
    String cacheKey = ReminderId.of(namespace, key).cacheKey();
    index.written(cacheKey, replica.store(record(namespace, key, state, DUE)));
  }

  private void remove(String namespace, String key) {
    String cacheKey = ReminderId.of(namespace, key).cacheKey();
    replica.entries.remove(cacheKey);
    index.removed(cacheKey);
  }

  private long live() {
    return Arrays.stream(index.liveBySegment()).sum();
  }

  @Test
  void counts_followEveryWriteAndRemove_withoutReadingTheReplicaAgain() {
    index.liveBySegment(); // the first read of the (empty) replica
    write("a", "1", PENDING);
    write("a", "2", PENDING);
    write("b", "1", PENDING);
    assertThat(index.liveByNamespace()).isEqualTo(Map.of("a", 2L, "b", 1L));
    assertThat(live()).isEqualTo(3);

    write("a", "1", FIRED); // a tombstone is not live
    remove("b", "1");
    assertThat(index.liveByNamespace()).isEqualTo(Map.of("a", 1L));
    assertThat(index.count("a", FIRED)).isEqualTo(1);
    assertThat(index.count(null, PENDING)).isEqualTo(1); // a:2
    assertThat(index.count("b", PENDING)).isZero();
    assertThat(live()).isEqualTo(1);
    assertThat(replica.gets).hasValue(0);
  }

  @Test
  void countDueAround_countsByTheHourOfTheNextDueTime() {
    long hour = 3_600_000L;
    long due = (DUE / hour) * hour + 10 * 60_000L; // ten past an hour
    index.written("a:1", replica.store(record("a", "1", PENDING, due)));
    index.written("b:1", replica.store(record("b", "1", FIRED, due + 2 * hour)));

    assertThat(index.countDueAround(null, null, null)).isEqualTo(2);
    assertThat(index.countDueAround("a", due - hour, due + hour)).isEqualTo(1);
    // a range in the same hour but after it: counted, so the listing walks and finds nothing
    assertThat(index.countDueAround("a", due + 1, due + 2)).isEqualTo(1);
    assertThat(index.countDueAround("a", null, due - hour)).isZero();
    assertThat(index.countDueAround("a", due + hour, null)).isZero();
    assertThat(index.countDueAround(null, due + hour, null)).isEqualTo(1);

    // moving a reminder's due time moves its count
    index.written("a:1", replica.store(record("a", "1", PENDING, due + 5 * hour)));
    assertThat(index.countDueAround("a", null, due + hour)).isZero();
    assertThat(index.countDueAround("a", due + 4 * hour, null)).isEqualTo(1);
  }

  @Test
  void firstReader_readsTheReplicaWrittenBeforeTheIndexSubscribed() {
    replica.store(record("a", "1", PENDING, DUE));
    replica.store(record("a", "2", CANCELLED, DUE));
    replica.entries.put(
        "foreign", new byte[] {1, 2, 3}); // not a reminder: neither listed nor counted

    assertThat(index.from(null, true).keySet()).containsExactly("a:1", "a:2");
    assertThat(index.from(null, true).get("a:2").state()).isEqualTo(CANCELLED);
    assertThat(index.liveByNamespace()).isEqualTo(Map.of("a", 1L));
  }

  @Test
  void readAfterATopologyChange_dropsWhatWasRemovedWithoutTheFeedKnowing() {
    write("a", "1", PENDING);
    write("a", "2", PENDING);
    assertThat(live()).isEqualTo(2);
    // a merge's conflict resolution or a state transfer changes entries without telling the feed
    replica.entries.remove("a:1");
    replica.store(record("a", "2", FIRED, DUE));
    replica.store(record("a", "3", PENDING, DUE));
    index.topologyChanged();

    assertThat(index.from(null, true).keySet()).containsExactly("a:2", "a:3");
    assertThat(index.count("a", FIRED)).isEqualTo(1);
    assertThat(live()).isEqualTo(1);
  }

  @Test
  void aRead_goesThroughTheReplicaASegmentStepAtATime_neverAllOfItAtOnce() {
    for (int i = 0; i < 40; i++) {
      replica.store(record("a", "k" + i, PENDING, DUE));
    }
    assertThat(live()).isEqualTo(40);

    // MapReplica has four segments: one per step, each read once, none as "all segments" (a step
    // holds its segments' entries for the sort, never the whole replica's)
    assertThat(replica.scans).hasSize(4).doesNotContainNull();
    BitSet covered = new BitSet();
    for (BitSet scan : replica.scans) {
      assertThat(scan.cardinality()).isEqualTo(1);
      assertThat(covered.intersects(scan)).isFalse();
      covered.or(scan);
    }
    assertThat(covered.cardinality()).isEqualTo(replica.segmentCount());
    assertThat(index.from(null, true)).hasSize(40);
  }

  @Test
  void withABackgroundExecutor_aTopologyChangeReadsTheReplicaThereNotOnAReader() {
    List<Runnable> tasks = new ArrayList<>();
    KeyIndex index = new KeyIndex(replica, replica, tasks::add);
    replica.store(record("a", "1", PENDING, DUE));
    assertThat(index.liveByNamespace()).isEqualTo(Map.of("a", 1L)); // the first read, on the reader
    replica.store(record("a", "2", PENDING, DUE)); // written without telling the feed

    index.topologyChanged();
    assertThat(tasks).hasSize(1);
    tasks.get(0).run();
    replica.beforeVisit =
        (k, v) -> {
          throw new AssertionError("a reader read the replica");
        };

    assertThat(index.liveByNamespace()).isEqualTo(Map.of("a", 2L));
  }

  @Test
  void aBackgroundReadAskedForWhileNotAllowed_waitsForReadDeferred() {
    List<Runnable> tasks = new ArrayList<>();
    boolean[] allowed = {false}; // as while recovery arms the reminders
    KeyIndex index = new KeyIndex(replica, replica, tasks::add, () -> allowed[0]);
    replica.store(record("a", "1", PENDING, DUE));

    index.readInBackground();
    index.topologyChanged();
    index.readDeferred();
    assertThat(tasks).as("reads started while not allowed").isEmpty();

    allowed[0] = true;
    index.readDeferred();
    assertThat(tasks).hasSize(1);
    tasks.get(0).run();
    index.readDeferred();
    assertThat(tasks).as("a read put off runs once").hasSize(1);
    replica.beforeVisit =
        (k, v) -> {
          throw new AssertionError("a reader read the replica");
        };
    assertThat(index.liveByNamespace()).isEqualTo(Map.of("a", 1L));
  }

  @Test
  void aReaderDuringALaterRead_goesOnWithTheIndexAsKept() throws Exception {
    write("a", "1", PENDING);
    index.liveBySegment(); // the first read
    CountDownLatch inRead = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    replica.beforeVisit =
        (k, v) -> {
          inRead.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
    index.topologyChanged();
    Thread rereader = new Thread(index::liveBySegment);
    rereader.start();
    try {
      assertThat(inRead.await(5, TimeUnit.SECONDS)).isTrue();
      assertTimeoutPreemptively(
          Duration.ofSeconds(5),
          () -> assertThat(index.liveByNamespace()).isEqualTo(Map.of("a", 1L)));
    } finally {
      release.countDown();
      rereader.join();
    }
  }

  @Test
  void aWriteDuringARead_isNotUndoneByTheOlderValueTheReadHadTaken() {
    replica.store(record("a", "1", PENDING, DUE));
    replica.beforeVisit =
        (cacheKey, staleValue) -> {
          // the entry is fired after the read took its value and before it reaches the index
          replica.beforeVisit = (k, v) -> {};
          write("a", "1", FIRED);
        };

    assertThat(index.from(null, true).get("a:1").state()).isEqualTo(FIRED);
    assertThat(index.liveByNamespace()).isEmpty();
    assertThat(index.count("a", FIRED)).isEqualTo(1);
  }

  @Test
  void aRemoveDuringARead_isNotPutBackByTheValueTheReadHadTaken() {
    replica.store(record("a", "1", PENDING, DUE));
    replica.store(record("a", "2", PENDING, DUE));
    replica.beforeVisit =
        (cacheKey, staleValue) -> {
          replica.beforeVisit = (k, v) -> {};
          remove("a", "1");
        };

    assertThat(index.from(null, true).keySet()).containsExactly("a:2");
    assertThat(index.liveByNamespace()).isEqualTo(Map.of("a", 1L));
    assertThat(live()).isEqualTo(1);
  }

  @Test
  void aWriteThatTurnsAKeyIntoGarbage_dropsItFromListingAndCounts() {
    index.liveBySegment();
    write("a", "1", PENDING);
    byte[] garbage = {1, 2, 3};
    replica.entries.put("a:1", garbage);
    index.written("a:1", garbage);

    assertThat(index.from(null, true)).isEmpty();
    assertThat(live()).isZero();
  }

  @Test
  void aPass_keepsTheKeyStringsHeldElsewhere_andAsksWithEachKeysSegment() {
    for (int i = 0; i < 3 * KeyIndex.SHARE_CHUNK / 2; i++) { // more than one chunk
      replica.store(record("a", "k" + i, PENDING, DUE));
    }
    Map<String, String> held = new java.util.HashMap<>();
    for (String cacheKey : replica.entries.keySet()) {
      if (!cacheKey.endsWith("7")) { // some keys are held nowhere else
        held.put(cacheKey, new String(cacheKey));
      }
    }
    List<String> wrongSegments = new ArrayList<>();
    KeyIndex sharing =
        new KeyIndex(
            replica,
            replica,
            null,
            () -> true,
            (keys, segments, count) -> {
              for (int i = 0; i < count; i++) {
                if (segments[i] != replica.segmentOf(keys[i])) {
                  wrongSegments.add(keys[i]);
                }
                keys[i] = held.getOrDefault(keys[i], keys[i]);
              }
            });

    Set<String> indexed = sharing.from(null, true).keySet();

    assertThat(indexed).hasSize(replica.entries.size());
    assertThat(wrongSegments).isEmpty();
    for (String cacheKey : indexed) {
      String expected = held.getOrDefault(cacheKey, cacheKey);
      assertThat(cacheKey).as(cacheKey).isSameAs(expected);
    }
    assertThat(sharing.count("a", PENDING)).isEqualTo(replica.entries.size());
  }
}
