package io.belfry.reminders.fire;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.Schedule;
import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.engine.ReminderEngineBuilder;
import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.schedule.SettableClock;
import io.belfry.reminders.store.VersionMerge;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The firing path's corner cases from the review in issue #18, on one in-memory node driven by
 * hand: refused deliveries of recurring reminders, resurrected recurring versions, successors of a
 * version minted by a clock that runs ahead, passing ownership changes, and the backlog rate.
 */
class FiringPathTest {

  private static final Instant T0 = Instant.parse("2026-11-21T09:00:00Z");
  private static final Duration HOURLY = Duration.ofHours(1);

  private final InMemoryNode node = new InMemoryNode();
  private final SettableClock clock = new SettableClock(T0);
  private final List<ReminderFired> delivered = new CopyOnWriteArrayList<>();
  private final AtomicBoolean refuse = new AtomicBoolean();

  @ParameterizedTest
  @EnumSource(DeliveryMode.class)
  void tick_versionMintedByAClockAheadReachedThisNodeUnobserved_successorsStillHigher(
      DeliveryMode mode) {
    ReminderEngine engine = engine().build();
    engine.start();
    // The write below reaches this node's replica without its notification being handled here:
    // only the sweep finds it, which arms without advancing the clock.
    node.unsubscribe();
    SettableClock ahead = new SettableClock(T0.plus(Duration.ofMinutes(1)));
    ReminderEngine other =
        ReminderEngine.builder(node, node, node).clock(ahead).delivery(fire -> {}).build();
    ReminderId id = ReminderId.of("ns", "ahead-" + mode);
    long set = other.set(hourly(id, T0).withDelivery(mode)).record().version();
    engine.sweep();
    int before = writesOf(id).size();

    assertThat(engine.tick()).isOne();

    assertThat(delivered).hasSize(1);
    List<Long> versions = writesOf(id).stream().skip(before).map(ReminderRecord::version).toList();
    assertThat(versions)
        .as("each successor (a lease, the next occurrence) above what it replaced")
        .isNotEmpty()
        .isSorted()
        .doesNotHaveDuplicates()
        .allSatisfy(v -> assertThat(v).isGreaterThan(set));
  }

  @ParameterizedTest
  @EnumSource(DeliveryMode.class)
  void tick_recurringDeliveryRefused_putBackAboveTheSuccessorAndFiresOnceAccepted(
      DeliveryMode mode) {
    ReminderEngine engine = engine().build();
    engine.start();
    ReminderId id = ReminderId.of("ns", "refused-" + mode);
    long set = engine.set(hourly(id, T0).withDelivery(mode)).record().version();
    refuse.set(true);

    assertThat(engine.tick()).as("committed, refused, undone").isZero();
    ReminderRecord restored = engine.get(id).orElseThrow();
    assertThat(restored.occurrence()).isOne();
    assertThat(restored.state()).isEqualTo(ReminderState.PENDING);
    assertThat(restored.version())
        .as("above the successor the undone commit wrote (the newest version minted)")
        .isGreaterThan(set)
        .isEqualTo(engine.lastVersion());

    refuse.set(false);
    clock.advance(EngineSettings.DEFAULTS.scanInterval());
    // Before: the successor's hint (due in an hour) kept the put-back version from being armed.
    engine.tick();
    assertThat(delivered).extracting(ReminderFired::getOccurrence).containsExactly(1L);
    assertThat(engine.get(id).orElseThrow().occurrence()).isEqualTo(2);
  }

  @Test
  void undo_restoredVersion_winsAMergeWithTheSuccessorItReplaced() {
    ReminderEngine engine = engine().build();
    engine.start();
    ReminderId id = ReminderId.of("ns", "merge");
    engine.set(hourly(id, T0));
    refuse.set(true);

    engine.tick();

    List<ReminderRecord> writes = writesOf(id);
    assertThat(writes).extracting(ReminderRecord::occurrence).containsExactly(1L, 2L, 1L);
    ReminderRecord successor = writes.get(1);
    ReminderRecord restored = writes.get(2);
    assertThat(VersionMerge.beats(restored, successor))
        .as("a replica still holding the successor must not undo the put-back on merge")
        .isTrue();
  }

  @Test
  void tick_ownershipLostAndBackBeforeTheTopologyIsApplied_hintKeptAndFired() {
    ReminderEngine engine = engine().build();
    engine.start();
    ReminderId id = ReminderId.of("ns", "flap");
    engine.set(ReminderSpec.once(id, T0, null));
    node.owner = false;

    assertThat(engine.tick()).as("not the primary owner right now").isZero();

    node.owner = true;
    // past the scheduler's retry pause (250 ms), well before the next sweep (1 s)
    clock.advance(Duration.ofMillis(300));
    assertThat(engine.tick()).isOne();
    assertThat(delivered).extracting(ReminderFired::getKey).containsExactly("flap");
  }

  @Test
  void tick_overdueBacklogPartlyBuriedByTheGuard_buriedOnesSpendNoToken() {
    Instant due = T0.minus(Duration.ofHours(1));
    ReminderEngine previous = previousLife();
    for (int i = 0; i < 20; i++) {
      // due first, so the rate meets them first
      previous.set(ReminderSpec.once(ReminderId.of("gone", "g" + i), due, null));
    }
    for (int i = 0; i < 10; i++) {
      previous.set(ReminderSpec.once(ReminderId.of("kept", "k" + i), due.plusSeconds(1), null));
    }
    ReminderEngine engine =
        engine()
            .settings(EngineSettings.DEFAULTS.withBackfillRatePerSecond(10))
            .resurrectionGuard(
                candidates ->
                    candidates.stream()
                        .filter(c -> c.id().namespace().equals("gone"))
                        .collect(
                            java.util.stream.Collectors.toMap(
                                ResurrectionGuard.Candidate::id, c -> ReminderState.CANCELLED)))
            .build();
    engine.start();

    int fired = 0;
    for (int run = 0; run < 3; run++) {
      fired += engine.tick(); // all at the same instant: no token is refilled
    }

    assertThat(fired).as("one second's worth of tokens, none spent on burials").isEqualTo(10);
    assertThat(delivered).extracting(f -> f.getNamespace()).containsOnly("kept");
  }

  @Test
  void tick_resurrectedRecurringVersionTheArchiveShowsFired_movesOnWithoutFiring() {
    ReminderId id = ReminderId.of("ns", "series");
    long old = previousLife().set(hourly(id, T0)).record().version();
    // the archive knows the old version fired, and nothing of the one the engine moves on to
    ReminderEngine engine =
        engine()
            .resurrectionGuard(
                candidates ->
                    candidates.stream().anyMatch(c -> c.version() == old)
                        ? Map.of(id, ReminderState.FIRED)
                        : Map.of())
            .build();
    // down for two and a half hours; the series went on elsewhere (the archive saw it fire)
    clock.set(T0.plus(Duration.ofMinutes(150)));
    engine.start();

    engine.tick();

    assertThat(delivered).as("not fired again").isEmpty();
    ReminderRecord next = engine.get(id).orElseThrow();
    assertThat(next.state()).as("the series goes on").isEqualTo(ReminderState.PENDING);
    assertThat(next.occurrence()).as("the first position after now").isEqualTo(4);
    assertThat(next.nextDueMillis()).isEqualTo(T0.plus(Duration.ofHours(3)).toEpochMilli());
    assertThat(next.version()).isGreaterThan(old);

    clock.set(T0.plus(Duration.ofHours(3)));
    engine.tick();
    assertThat(delivered).extracting(ReminderFired::getOccurrence).containsExactly(4L);
  }

  @Test
  void tick_resurrectedRecurringVersionTheArchiveShowsCancelled_buried() {
    ReminderId id = ReminderId.of("ns", "cancelled-series");
    long old = previousLife().set(hourly(id, T0)).record().version();
    ReminderEngine engine =
        engine().resurrectionGuard(candidates -> Map.of(id, ReminderState.CANCELLED)).build();
    engine.start();

    engine.tick();

    assertThat(delivered).isEmpty();
    ReminderRecord buried = engine.get(id).orElseThrow();
    assertThat(buried.state()).isEqualTo(ReminderState.CANCELLED);
    assertThat(buried.version()).isEqualTo(old);
  }

  private List<ReminderRecord> writesOf(ReminderId id) {
    return node.history.stream().filter(r -> r.id().equals(id)).toList();
  }

  private static ReminderSpec hourly(ReminderId id, Instant first) {
    return new ReminderSpec(
        id, new Schedule.Every(HOURLY), first, null, null, null, null, null, null, null);
  }

  /** An engine of an earlier run of this node; what it stores is minted before the next start. */
  private ReminderEngine previousLife() {
    return ReminderEngine.builder(node, node, node).clock(clock).delivery(fire -> {}).build();
  }

  private ReminderEngineBuilder engine() {
    return ReminderEngine.builder(node, node, node)
        .clock(clock)
        .deliveryExecutor(
            task -> {
              if (refuse.get()) {
                throw new RejectedExecutionException("suspended");
              }
              task.run();
            })
        .delivery(delivered::add);
  }
}
