package io.belfry.reminders.fire;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.schedule.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Group commit: a burst of due fires commits a group at a time, every commit of a group issued
 * before any is waited for, and a group is delivered before the next one commits. The store's
 * replaces run on other threads and take a while each, as a replicated write does.
 */
class GroupCommitTest {

  private static final long COMMIT_MILLIS = 30;

  private final InMemoryNode node = new InMemoryNode();
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-25T09:00:00Z"));
  private final ExecutorService replicas = Executors.newCachedThreadPool();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger mostInFlight = new AtomicInteger();

  /** "commit" when a replace has been written, "deliver k" when k is delivered; in that order. */
  private final List<String> events = new CopyOnWriteArrayList<>();

  /** Told each delivered key, after {@link #events} has it. */
  private volatile Consumer<String> deliveredHook = key -> {};

  @AfterEach
  void stop() {
    replicas.shutdownNow();
  }

  @Test
  void burstDueAtOnce_commitsOverlapWithinAGroup_andTheFirstGroupIsDeliveredBeforeTheLastCommits() {
    ReminderEngine engine = startedEngine();
    int burst = Scheduler.COMMIT_GROUP * 2 + 10;
    Instant due = clock.now().plusSeconds(1);
    List<String> keys = IntStream.range(0, burst).mapToObj(i -> "k" + i).toList();
    for (String key : keys) {
      engine.set(ReminderSpec.once(ReminderId.of("ns", key), due, null));
    }
    node.commitExecutor = task -> replicas.execute(slowly(task));
    clock.advance(Duration.ofSeconds(1));

    assertThat(engine.tick()).as("one run commits the whole burst").isEqualTo(burst);

    List<String> delivered =
        events.stream().filter(e -> e.startsWith("deliver ")).map(e -> e.substring(8)).toList();
    assertThat(delivered).as("each once").containsExactlyInAnyOrderElementsOf(keys);
    assertThat(mostInFlight.get())
        .as("commits of one group in flight together (one at a time before group commit)")
        .isGreaterThan(Scheduler.FIRST_GROUP)
        .isLessThanOrEqualTo(Scheduler.COMMIT_GROUP);
    int firstDelivery = events.indexOf("deliver " + delivered.get(0));
    assertThat(events.subList(0, firstDelivery))
        .as("the first fire waits only for the run's first, smaller group")
        .hasSizeLessThanOrEqualTo(Scheduler.FIRST_GROUP);
    int lastCommit = events.lastIndexOf("commit");
    assertThat(firstDelivery)
        .as("the first group is delivered while later groups still commit")
        .isLessThan(lastCommit);
    assertThat(node.size()).isEqualTo(burst);
    assertThat(engine.tick()).as("nothing fires twice").isZero();
  }

  @Test
  void aFireIsDeliveredAsSoonAsItsOwnCommitIsAcknowledged_notAfterTheGroupsLast() {
    ReminderEngine engine = startedEngine();
    Instant due = clock.now().plusSeconds(1);
    int group = 10;
    for (int i = 0; i < group; i++) {
      // one millisecond apart: issued, and waited for, in this order
      engine.set(ReminderSpec.once(ReminderId.of("ns", "k" + i), due.plusMillis(i), null));
    }
    AtomicInteger issued = new AtomicInteger();
    CountDownLatch k0Delivered = new CountDownLatch(1);
    deliveredHook =
        key -> {
          if (key.equals("k0")) {
            k0Delivered.countDown();
          }
        };
    // The first commit is acknowledged at once; every later one is held until k0 is delivered, or
    // for 5 s at most: an engine that waits for the group's last commit delivers k0 after them all
    // and fails below, without the test hanging on a timing margin (a fixed 30 ms was too short
    // for a busy CI box).
    node.commitExecutor =
        task ->
            replicas.execute(
                issued.getAndIncrement() == 0 ? recorded(task) : heldUntil(k0Delivered, task));
    clock.advance(Duration.ofSeconds(2));

    assertThat(engine.tick()).isEqualTo(group);

    assertThat(events.indexOf("deliver k0"))
        .as("k0 delivered before the group's other commits are acknowledged: " + events)
        .isEqualTo(1);
    assertThat(events.stream().filter(e -> e.startsWith("deliver ")).count()).isEqualTo(group);
  }

  @Test
  void atLeastOnce_theLeasesOfABurstAreInFlightTogether() {
    ReminderEngine engine = startedEngine();
    Instant due = clock.now().plusSeconds(1);
    int burst = 20;
    for (int i = 0; i < burst; i++) {
      engine.set(
          ReminderSpec.once(ReminderId.of("ns", "k" + i), due, null)
              .withDelivery(DeliveryMode.AT_LEAST_ONCE));
    }
    node.commitExecutor = task -> replicas.execute(slowly(task));
    clock.advance(Duration.ofSeconds(1));

    assertThat(engine.tick()).isEqualTo(burst);

    assertThat(mostInFlight.get())
        .as("the leases' writes overlap (one at a time before)")
        .isGreaterThan(burst / 2);
    assertThat(events.stream().filter(e -> e.startsWith("deliver ")).count()).isEqualTo(burst);
  }

  /**
   * An engine on {@link #node} and {@link #clock}, delivering in the caller into {@link #events}.
   */
  private ReminderEngine startedEngine() {
    ReminderEngine engine =
        ReminderEngine.builder(node, node, node)
            .clock(clock)
            .deliveryExecutor(Runnable::run)
            .delivery(
                fire -> {
                  events.add("deliver " + fire.getKey());
                  deliveredHook.accept(fire.getKey());
                })
            .build();
    engine.start();
    return engine;
  }

  /** A replace acknowledged at once. */
  private Runnable recorded(Runnable replace) {
    return () -> {
      replace.run();
      events.add("commit");
    };
  }

  /** A replace acknowledged once {@code released} opens, or after 5 s. */
  private Runnable heldUntil(CountDownLatch released, Runnable replace) {
    return () -> {
      try {
        released.await(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      replace.run();
      events.add("commit");
    };
  }

  /** A replace that takes {@link #COMMIT_MILLIS}, counting how many run at once. */
  private Runnable slowly(Runnable replace) {
    return () -> {
      mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      try {
        Thread.sleep(COMMIT_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      inFlight.decrementAndGet();
      replace.run();
      events.add("commit");
    };
  }
}
