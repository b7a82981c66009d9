package io.belfry.reminders.fire;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.engine.SetResult;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.schedule.SettableClock;
import io.belfry.reminders.store.StoredReminder;
import java.time.Instant;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A set of a key the key index has never seen goes straight to {@code putIfAbsent}, without reading
 * the store first (with memory bounded, that read is a lookup in the file store's index); a key the
 * index has not heard of yet, though it is stored, is still replaced as {@code set} promises.
 */
class NewKeySetTest {

  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-26T09:00:00Z"));

  /** The store: every read counted. */
  private final InMemoryNode node = new InMemoryNode();

  private final AtomicInteger reads = new AtomicInteger();
  private final AtomicInteger putIfAbsents = new AtomicInteger();
  private final AtomicInteger scans = new AtomicInteger();

  /** Whether the counted store says its reads go to disk, as with memory bounded. */
  private boolean onDisk = true;

  private final DelegatingStore counted =
      new DelegatingStore(node) {
        @Override
        public boolean readsThroughToDisk() {
          return onDisk;
        }

        @Override
        public void forEachLocal(BitSet segments, EntryVisitor visitor) {
          if (segments == null) {
            scans.incrementAndGet();
          }
          super.forEachLocal(segments, visitor);
        }

        @Override
        public Optional<StoredReminder> get(ReminderId id) {
          reads.incrementAndGet();
          return super.get(id);
        }

        @Override
        public Optional<StoredReminder> putIfAbsent(ReminderRecord record) {
          putIfAbsents.incrementAndGet();
          return super.putIfAbsent(record);
        }
      };

  @Test
  void set_keyTheIndexHasNeverSeen_isNotReadFirst() {
    ReminderEngine engine = engine(node);

    assertThat(engine.set(spec("new")).created()).isTrue();
    assertThat(engine.setAll(List.of(spec("new-1"), spec("new-2"))))
        .allSatisfy(result -> assertThat(result.created()).isTrue());

    assertThat(reads).as("reads of the store").hasValue(0);
    assertThat(node.size()).isEqualTo(3);
  }

  @Test
  void start_storeReadsFromMemory_keyIndexNotReadUntilAsked() {
    onDisk = false;
    engine(new InMemoryNode()).set(spec("before")); // stored, and never told to this engine
    ReminderEngine engine = engine(node);

    assertThat(scans).as("whole-replica reads after start").hasValue(0);
    assertThat(engine.set(spec("new")).created()).isTrue();
    assertThat(reads).as("a read of the store, in memory there").hasValue(1);

    assertThat(engine.keyIndex().count(null, ReminderState.PENDING)).isEqualTo(2);
    assertThat(scans).as("read when a count asks for it").hasValue(1);
  }

  @Test
  void set_keyTheIndexKnows_isReadAndReplaced() {
    ReminderEngine engine = engine(node);
    ReminderRecord first = engine.set(spec("known")).record();
    reads.set(0);
    putIfAbsents.set(0);

    SetResult again = engine.set(spec("known"));

    assertThat(again.created()).isFalse();
    assertThat(again.record().version()).isGreaterThan(first.version());
    assertThat(reads).as("reads of the store").hasValue(1);
    assertThat(putIfAbsents).as("no create tried first").hasValue(0);
  }

  @Test
  void set_keyStoredBehindTheIndexsBack_isStillReplacedWithAHigherVersion() {
    // the engine's index learns of writes from another feed, which never tells it of this one
    ReminderEngine writer = engine(new InMemoryNode());
    ReminderEngine engine = engine(new InMemoryNode());
    ReminderRecord elsewhere = writer.set(spec("raced")).record();
    ReminderRecord batchedElsewhere = writer.set(spec("raced-in-batch")).record();

    SetResult result = engine.set(spec("raced"));
    List<SetResult> batch = engine.setAll(List.of(spec("raced-in-batch")));

    assertThat(result.created()).as("a replacement, not a creation").isFalse();
    assertThat(result.record().version()).isGreaterThan(elsewhere.version());
    assertThat(node.get(ReminderId.of("ns", "raced")).orElseThrow().record())
        .isEqualTo(result.record());
    assertThat(batch.get(0).created()).isFalse();
    assertThat(batch.get(0).record().version()).isGreaterThan(batchedElsewhere.version());
    assertThat(node.get(ReminderId.of("ns", "raced-in-batch")).orElseThrow().record())
        .isEqualTo(batch.get(0).record());
  }

  /**
   * An engine on the counted store, whose key index reads the store at start and then follows
   * {@code feed}.
   */
  private ReminderEngine engine(InMemoryNode feed) {
    ReminderEngine engine =
        ReminderEngine.builder(counted, feed, feed)
            .clock(clock)
            .background(Runnable::run)
            .delivery(fire -> {})
            .build();
    engine.start();
    reads.set(0);
    putIfAbsents.set(0);
    scans.set(0);
    return engine;
  }

  private ReminderSpec spec(String key) {
    return ReminderSpec.once(ReminderId.of("ns", key), clock.now().plusSeconds(60), null);
  }
}
