package io.belfry.reminders.fire;

import static io.belfry.reminders.fire.SchedulerTest.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.model.HybridLogicalClock;
import io.belfry.reminders.model.ReminderId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order a start's recovery reads the segments in: the file a node records while it runs, and a
 * restart whose first step reads the segment of the earliest due reminder, wherever it lies.
 */
class RecoveryOrderTest {

  private static final int SEGMENTS = 64;

  @TempDir Path directory;

  private final InMemoryNode node = new InMemoryNode();
  private ScheduledExecutorService timer;

  @AfterEach
  void stopTimer() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }

  @Test
  void read_withoutAFile_isNumberOrder() {
    RecoveryOrder order = new RecoveryOrder(Optional.of(directory.resolve(RecoveryOrder.FILE)));

    assertThat(order.read(4)).containsExactly(0, 1, 2, 3);
    assertThat(new RecoveryOrder(Optional.empty()).read(3)).containsExactly(0, 1, 2);
  }

  @Test
  void read_afterRecord_isEarliestDueFirst_tiesAndSegmentsWithoutDueInNumberOrder() {
    Path file = directory.resolve(RecoveryOrder.FILE);
    new RecoveryOrder(Optional.of(file)).record(new long[] {500, Long.MAX_VALUE, 100, 500, 7});

    // a new instance, as a restart makes: only the file carries the order
    assertThat(new RecoveryOrder(Optional.of(file)).read(5)).containsExactly(4, 2, 0, 3, 1);
  }

  @Test
  void read_ofAnotherSegmentCount_orADamagedFile_isNumberOrder() throws Exception {
    Path file = directory.resolve(RecoveryOrder.FILE);
    new RecoveryOrder(Optional.of(file)).record(new long[] {9, 8, 7});
    assertThat(new RecoveryOrder(Optional.of(file)).read(4)).containsExactly(0, 1, 2, 3);

    byte[] whole = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(whole, whole.length - 3));
    assertThat(new RecoveryOrder(Optional.of(file)).read(3)).containsExactly(0, 1, 2);

    Files.writeString(file, "not an order");
    assertThat(new RecoveryOrder(Optional.of(file)).read(3)).containsExactly(0, 1, 2);
  }

  @Test
  void record_whereNoFileCanBeWritten_logsAndLeavesNumberOrder() throws Exception {
    Path notADirectory = Files.writeString(directory.resolve("plain-file"), "x");
    RecoveryOrder order = new RecoveryOrder(Optional.of(notADirectory.resolve(RecoveryOrder.FILE)));

    order.record(new long[] {2, 1});

    assertThat(order.read(2)).containsExactly(0, 1);
  }

  @Test
  void steps_readOneSegment_thenTwo_thenFour_thenEight() {
    node.segments = SEGMENTS;
    Recovery recovery =
        new Recovery(
            node,
            new HybridLogicalClock(System::currentTimeMillis),
            System::currentTimeMillis,
            new OwnedIndex(node, node, namespace -> true, false));
    recovery.begin();
    recovery.planSteps(SEGMENTS);

    List<Integer> sizes = new ArrayList<>();
    while (recovery.hasStepsLeft()) {
      Recovery.Step step = recovery.nextStep();
      sizes.add(step.segments().cardinality());
      recovery.arm(step, new Recovery.StepRead(List.of(), 0));
    }

    assertThat(sizes.subList(0, 5)).containsExactly(1, 2, 4, 8, 8);
    assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(SEGMENTS);
    assertThat(recovery.recovered()).isTrue();
  }

  @Test
  void restart_firstReadsTheSegmentThatHeldTheEarliestDue_soItsOverdueReminderFiresFirst()
      throws Exception {
    node.storeDirectory = directory;
    String overdue = keyInSegments(SEGMENTS - 8, SEGMENTS);
    setAndStop(overdue);
    assertThat(directory.resolve(RecoveryOrder.FILE)).exists();

    Restart restart = restartHoldingScansAfterTheFirst();
    try {
      awaitUntil(() -> restart.delivered.contains(overdue));
      assertThat(restart.engine.recovered()).as("fired before the rest was read").isFalse();
      assertThat(restart.scans.get(0)).isEqualTo(segments(node.segmentOf(cacheKey(overdue))));
    } finally {
      restart.rest.countDown();
    }
    awaitUntil(restart.engine::recovered);
    assertThat(restart.engine.armedCount()).as("every later one armed in the end").isEqualTo(20);
    restart.engine.stop();
  }

  @Test
  void restart_withoutARecordedOrder_readsInNumberOrder() throws Exception {
    String overdue = keyInSegments(SEGMENTS - 8, SEGMENTS);
    setAndStop(overdue); // no store directory: nothing recorded

    Restart restart = restartHoldingScansAfterTheFirst();
    try {
      awaitUntil(() -> restart.scans.size() == 2);
      Thread.sleep(200);
      assertThat(restart.scans.get(0)).isEqualTo(segments(0));
      assertThat(restart.delivered).as("its segment is not read yet").isEmpty();
    } finally {
      restart.rest.countDown();
    }
    awaitUntil(() -> restart.delivered.contains(overdue));
    restart.engine.stop();
  }

  /**
   * On a running engine: twenty reminders due in an hour, one in {@code overdue}'s late segment due
   * in half a second; stops the engine at once (recording the order), and waits until it is due.
   */
  private void setAndStop(String overdue) throws Exception {
    node.segments = SEGMENTS;
    ReminderEngine before = onTimer(new CopyOnWriteArrayList<>());
    before.start();
    awaitUntil(before::recovered);
    Instant now = Instant.now();
    for (int i = 0; i < 20; i++) {
      before.set(ReminderSpec.once(ReminderId.of("ns", "later-" + i), now.plusSeconds(3600), null));
    }
    before.set(ReminderSpec.once(ReminderId.of("ns", overdue), now.plusMillis(500), null));
    before.stop();
    timer.shutdownNow();
    Thread.sleep(Math.max(0, now.plusMillis(600).toEpochMilli() - System.currentTimeMillis()));
  }

  /** A restarted engine, what it delivered, its recovery's scans, and the latch they wait for. */
  private record Restart(
      ReminderEngine engine, List<String> delivered, List<BitSet> scans, CountDownLatch rest) {}

  /**
   * Starts a new engine on the node, recording each recovery scan's segments: every scan after the
   * first waits for the returned latch.
   */
  private Restart restartHoldingScansAfterTheFirst() {
    List<BitSet> scans = new CopyOnWriteArrayList<>();
    CountDownLatch rest = new CountDownLatch(1);
    node.beforeScan =
        segments -> {
          if (segments == null) {
            return;
          }
          scans.add((BitSet) segments.clone());
          if (scans.size() > 1) {
            try {
              rest.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        };
    List<String> delivered = new CopyOnWriteArrayList<>();
    ReminderEngine engine = onTimer(delivered);
    engine.start();
    return new Restart(engine, delivered, scans, rest);
  }

  private ReminderEngine onTimer(List<String> delivered) {
    timer = Executors.newScheduledThreadPool(2);
    return ReminderEngine.builder(node, node, node)
        .timer(timer)
        .delivery(fire -> delivered.add(fire.getKey()))
        .build();
  }

  private String keyInSegments(int from, int to) {
    node.segments = SEGMENTS;
    for (int i = 0; ; i++) {
      int segment = node.segmentOf(cacheKey("k" + i));
      if (segment >= from && segment < to) {
        return "k" + i;
      }
    }
  }

  private static String cacheKey(String key) {
    return ReminderId.of("ns", key).cacheKey();
  }

  private static BitSet segments(int... numbers) {
    BitSet set = new BitSet();
    for (int number : numbers) {
      set.set(number);
    }
    return set;
  }
}
