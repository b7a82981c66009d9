package io.belfry.reminders.fire;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.schedule.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * While a fire's commit is undecided, nothing that reads the replica arms its version again: the
 * replica still shows the version the commit replaces, and a second run would issue a second
 * conditional replace of it beside the first. Infinispan does not promise that only one of two such
 * replaces wins while the topology changes (see {@link OwnedIndex}), so the scheduler never issues
 * the second.
 */
class InFlightCommitTest {

  private static final ReminderId ID = ReminderId.of("ns", "k");

  private final InMemoryNode node = new InMemoryNode();
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-26T09:00:00Z"));

  /** Replaces issued and not yet applied: the store shows the old version until one is run. */
  private final BlockingQueue<Runnable> held = new LinkedBlockingQueue<>();

  private final List<String> delivered = new CopyOnWriteArrayList<>();

  @Test
  void sweepWhileTheCommitIsUndecided_doesNotArmTheVersionAgain() throws Exception {
    ReminderEngine engine = startedEngine();
    engine.set(ReminderSpec.once(ID, clock.now().plusSeconds(1), null));
    node.commitExecutor = held::add;
    clock.advance(Duration.ofSeconds(1));

    CompletableFuture<Integer> firstRun = CompletableFuture.supplyAsync(engine::tick);
    Runnable firstCommit = held.poll(10, TimeUnit.SECONDS);
    assertThat(firstCommit).as("the run issued its commit").isNotNull();

    // The replica still holds the pending version: the sweep reads it while the commit waits.
    engine.sweep();
    assertThat(engine.armedCount()).as("the version in flight is not armed again").isZero();
    CompletableFuture<Integer> secondRun = CompletableFuture.supplyAsync(engine::tick);
    assertThat(secondRun.get(10, TimeUnit.SECONDS)).isZero();
    assertThat(held).as("no second replace of the same version").isEmpty();

    firstCommit.run();
    assertThat(firstRun.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(delivered).containsExactly("k");
    engine.sweep();
    assertThat(engine.tick()).as("nothing fires twice").isZero();
  }

  @Test
  void aFailedCommit_isTriedAgainAfterThePause() throws Exception {
    ReminderEngine engine = startedEngine();
    engine.set(ReminderSpec.once(ID, clock.now().plusSeconds(1), null));
    node.commitExecutor =
        task -> {
          throw new IllegalStateException("the cluster refused the write");
        };
    clock.advance(Duration.ofSeconds(1));

    assertThat(engine.tick()).isZero();
    assertThat(engine.armedCount()).as("put back a pause ahead once settled").isEqualTo(1);

    node.commitExecutor = null;
    clock.advance(Duration.ofMillis(Scheduler.FAILED_RETRY_PAUSE_MILLIS));
    assertThat(engine.tick()).isEqualTo(1);
    assertThat(delivered).containsExactly("k");
  }

  @Test
  void aNewerVersionWrittenWhileTheCommitIsUndecided_isArmed() throws Exception {
    ReminderEngine engine = startedEngine();
    engine.set(ReminderSpec.once(ID, clock.now().plusSeconds(1), null));
    node.commitExecutor = held::add;
    clock.advance(Duration.ofSeconds(1));

    CompletableFuture<Integer> firstRun = CompletableFuture.supplyAsync(engine::tick);
    Runnable firstCommit = held.poll(10, TimeUnit.SECONDS);
    assertThat(firstCommit).isNotNull();

    node.commitExecutor = null;
    engine.set(ReminderSpec.once(ID, clock.now().plusSeconds(60), null));

    firstCommit.run();
    assertThat(firstRun.get(10, TimeUnit.SECONDS)).as("the replace lost to the set").isZero();
    clock.advance(Duration.ofSeconds(60));
    assertThat(engine.tick()).as("the set's own version was armed").isEqualTo(1);
    assertThat(delivered).containsExactly("k");
  }

  private ReminderEngine startedEngine() {
    ReminderEngine engine =
        ReminderEngine.builder(node, node, node)
            .clock(clock)
            .deliveryExecutor(Runnable::run)
            .delivery(fire -> delivered.add(fire.getKey()))
            .build();
    engine.start();
    return engine;
  }
}
