package io.belfry.reminders.fire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.engine.SetResult;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.schedule.SettableClock;
import io.belfry.reminders.store.StoreUnavailableException;
import io.belfry.reminders.store.StoredReminder;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ReminderEngine#setAll}: a batch's writes are in flight together (one replicated write
 * after the other before), and each reminder ends as {@code set} would leave it, announced once,
 * also when a write loses a race or its outcome is unknown.
 */
class BatchSetTest {

  private static final long WRITE_MILLIS = 20;

  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-26T09:00:00Z"));
  private final ExecutorService replicas = Executors.newCachedThreadPool();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger mostInFlight = new AtomicInteger();
  private final List<String> announced = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    replicas.shutdownNow();
  }

  @Test
  void batch_writesInFlightTogether_eachStoredAndAnnouncedOnce() {
    InMemoryNode node = new InMemoryNode();
    ReminderEngine engine = engine(node);
    engine.set(spec("k3")); // one of the batch replaces a live one
    announced.clear();
    node.commitExecutor = task -> replicas.execute(slowly(task));

    List<ReminderSpec> batch = IntStream.range(0, 50).mapToObj(i -> spec("k" + i)).toList();
    List<SetResult> results = engine.setAll(batch);

    assertThat(mostInFlight.get()).as("writes of the batch in flight at once").isGreaterThan(10);
    assertThat(results).hasSize(50);
    for (int i = 0; i < 50; i++) {
      SetResult result = results.get(i);
      assertThat(result.record().id().key()).isEqualTo("k" + i);
      assertThat(result.created()).isEqualTo(i != 3);
      assertThat(node.get(result.record().id()).map(StoredReminder::record))
          .contains(result.record());
    }
    assertThat(announced).hasSize(50).contains("replaced k3").contains("set k0", "set k49");
  }

  @Test
  void writeLosingARace_goesOnAlone_andWins() {
    InMemoryNode node = new InMemoryNode();
    ReminderEngine engine = engine(node);
    ReminderRecord first = engine.set(spec("raced")).record();
    announced.clear();
    // another writer replaces the entry between the batch's read and its write
    RacingNode racing = new RacingNode(node, () -> engine.set(spec("raced")));
    ReminderEngine batchEngine = engine(racing);

    List<SetResult> results = batchEngine.setAll(List.of(spec("raced"), spec("calm")));

    ReminderRecord stored = node.get(ReminderId.of("ns", "raced")).orElseThrow().record();
    assertThat(results.get(0).record()).isEqualTo(stored);
    assertThat(stored.version()).isGreaterThan(first.version());
    assertThat(results.get(1).created()).isTrue();
    assertThat(announced).containsExactlyInAnyOrder("replaced raced", "replaced raced", "set calm");
  }

  @Test
  void writeWithUnknownOutcome_thatWasStored_isTheResult_notWrittenAgain() {
    InMemoryNode node = new InMemoryNode();
    AppliedButUnconfirmed unsure = new AppliedButUnconfirmed(node);
    ReminderEngine engine = engine(unsure);

    List<SetResult> results = engine.setAll(List.of(spec("unsure")));

    ReminderRecord stored = node.get(ReminderId.of("ns", "unsure")).orElseThrow().record();
    assertThat(results.get(0).record()).isEqualTo(stored);
    assertThat(results.get(0).created()).isTrue();
    assertThat(unsure.writes.get()).as("the applied write was read back, not repeated").isOne();
    assertThat(announced).containsExactly("set unsure");
  }

  @Test
  void oneWriteFailing_theOthersStoredAreAnnounced_andTheFailureIsThrown() {
    InMemoryNode node = new InMemoryNode();
    ReminderEngine engine =
        engine(
            new DelegatingStore(node) {
              @Override
              public CompletionStage<Optional<StoredReminder>> putIfAbsentAsync(
                  ReminderRecord record) {
                return record.id().key().equals("bad")
                    ? CompletableFuture.failedFuture(new IllegalStateException("disk full"))
                    : super.putIfAbsentAsync(record);
              }
            });

    assertThatThrownBy(() -> engine.setAll(List.of(spec("bad"), spec("good1"), spec("good2"))))
        .hasMessage("disk full");

    assertThat(announced).containsExactlyInAnyOrder("set good1", "set good2");
    assertThat(node.size()).isEqualTo(2);
  }

  @Test
  void aFailureForGood_laterWritesOfUnknownOutcome_readBackAndAnnouncedIfStored() {
    InMemoryNode node = new InMemoryNode();
    ReminderEngine engine =
        engine(
            new DelegatingStore(node) {
              @Override
              public CompletionStage<Optional<StoredReminder>> putIfAbsentAsync(
                  ReminderRecord record) {
                if (record.id().key().equals("broken")) {
                  return CompletableFuture.failedFuture(new IllegalStateException("disk full"));
                }
                if (record.id().key().startsWith("applied")) {
                  super.putIfAbsent(record);
                }
                return CompletableFuture.failedFuture(
                    new StoreUnavailableException("view changed during the write", null));
              }
            });

    assertThatThrownBy(
            () ->
                engine.setAll(
                    List.of(spec("broken"), spec("applied-1"), spec("lost"), spec("applied-2"))))
        .hasMessage("disk full");

    assertThat(announced)
        .as("stored after all: announced; never stored: not written again")
        .containsExactlyInAnyOrder("set applied-1", "set applied-2");
    assertThat(node.size()).isEqualTo(2);
  }

  private ReminderEngine engine(io.belfry.reminders.store.ReminderStore store) {
    InMemoryNode ownership = new InMemoryNode();
    ReminderEngine engine =
        ReminderEngine.builder(store, ownership, ownership)
            .clock(clock)
            .delivery(fire -> {})
            .listener(
                new EngineListener() {
                  @Override
                  public void set(ReminderRecord record) {
                    announced.add("set " + record.id().key());
                  }

                  @Override
                  public void replaced(ReminderRecord previous, ReminderRecord current) {
                    announced.add("replaced " + current.id().key());
                  }
                })
            .build();
    engine.start();
    return engine;
  }

  private ReminderSpec spec(String key) {
    return ReminderSpec.once(ReminderId.of("ns", key), clock.now().plusSeconds(60), null);
  }

  private Runnable slowly(Runnable write) {
    return () -> {
      mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      try {
        Thread.sleep(WRITE_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      inFlight.decrementAndGet();
      write.run();
    };
  }

  /** A store whose first asynchronous replace is preceded by another writer's set. */
  private static final class RacingNode extends DelegatingStore {
    private final Runnable rival;
    private boolean raced;

    RacingNode(InMemoryNode node, Runnable rival) {
      super(node);
      this.rival = rival;
    }

    @Override
    public CompletionStage<Boolean> replaceAsync(StoredReminder expected, ReminderRecord next) {
      if (!raced) {
        raced = true;
        rival.run();
      }
      return super.replaceAsync(expected, next);
    }
  }

  /** A store whose asynchronous put is applied but reported as failed by the cluster. */
  private static final class AppliedButUnconfirmed extends DelegatingStore {
    final AtomicInteger writes = new AtomicInteger();

    AppliedButUnconfirmed(InMemoryNode node) {
      super(node);
    }

    @Override
    public Optional<StoredReminder> putIfAbsent(ReminderRecord record) {
      writes.incrementAndGet();
      return super.putIfAbsent(record);
    }

    @Override
    public CompletionStage<Optional<StoredReminder>> putIfAbsentAsync(ReminderRecord record) {
      writes.incrementAndGet();
      super.putIfAbsent(record);
      return CompletableFuture.failedFuture(
          new StoreUnavailableException("view changed during the write", null));
    }
  }
}
