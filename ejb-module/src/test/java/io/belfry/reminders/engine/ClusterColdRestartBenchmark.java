package io.belfry.reminders.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.Schedule;
import io.belfry.reminders.model.HybridLogicalClock;
import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.store.CacheValues;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cold restart of a three-member cluster in one JVM, each member with its own Soft-Index file
 * store: {@value #DEFAULT_PENDING} pending reminders due in 30 days plus {@value #OVERDUE} that
 * fell due while the cluster was down. All members are stopped, then started at once, as after a
 * full outage. Measured from the start: every member's cache started (preload, join), every
 * engine's recovery scan done (all armed), first fire, all overdue fired. The reminders are written
 * with {@code putAll} in batches (the load is not what is measured). Three members on one 2-core
 * box share its cores, so each is slower than a node on its own machine.
 *
 * <p>{@code mvn -B -pl ejb-module -am -Pbench test -Dtest=ClusterColdRestartBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}
 */
@Tag("benchmark")
class ClusterColdRestartBenchmark {

  static final int DEFAULT_PENDING = 1_000_000;
  static final int OVERDUE = 1_000;
  private static final int PENDING = Integer.getInteger("bench.restartReminders", DEFAULT_PENDING);
  private static final int BATCH = 1_000;
  private static final Duration PATIENCE = Duration.ofMinutes(20);

  @TempDir Path dir;

  @Test
  void coldRestartOfThreeMembers() throws Exception {
    TestCluster cluster = new TestCluster(dir);
    ScheduledExecutorService timer = Executors.newScheduledThreadPool(TestCluster.SIZE);
    List<ReminderEngine> engines = new ArrayList<>();
    AtomicLong firstFire = new AtomicLong();
    AtomicInteger fired = new AtomicInteger();
    long loadMillis;
    try {
      startMembers(cluster);
      long now = System.currentTimeMillis();
      long loadStart = System.nanoTime();
      load(cluster, "p", PENDING, now + Duration.ofDays(30).toMillis(), now);
      load(cluster, "overdue", OVERDUE, now - 1_000, now);
      loadMillis = (System.nanoTime() - loadStart) / 1_000_000;
      cluster.stopAll();

      long start = System.nanoTime();
      startMembers(cluster);
      long membersUp = System.nanoTime();
      int armed = 0;
      for (int i = 0; i < TestCluster.SIZE; i++) {
        // as in WildFly: the system clock and a timer, so the engine fires by itself
        ReminderEngine engine =
            ReminderEngine.builder(cluster.cache(i))
                .timer(timer)
                .delivery(
                    fire -> {
                      firstFire.compareAndSet(0, System.nanoTime());
                      fired.incrementAndGet();
                    })
                .build();
        engine.start();
        engines.add(engine);
      }
      // recovery goes on in steps after start returns, firing as it goes
      for (ReminderEngine engine : engines) {
        while (!engine.recovered()) {
          Thread.sleep(1);
        }
        armed += engine.armedCount();
      }
      long allArmed = System.nanoTime();
      long deadline = System.nanoTime() + PATIENCE.toNanos();
      while (fired.get() < OVERDUE && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      long allOverdue = System.nanoTime();

      String markdown =
          String.format(
              Locale.ROOT,
              "## Cold restart, three members in one JVM (%s)%n%n"
                  + "| pending | overdue | load (putAll) | members up (preload, join) | all armed"
                  + " | first fire | all overdue fired | armed when the scans ended (sum) |%n"
                  + "|---|---|---|---|---|---|---|---|%n"
                  + "| %,d | %,d | %,d ms | %,d ms | %,d ms | %,d ms | %,d ms | %,d |%n",
              Instant.now(),
              PENDING,
              OVERDUE,
              loadMillis,
              millis(start, membersUp),
              millis(start, allArmed),
              millis(start, firstFire.get()),
              millis(start, allOverdue),
              armed);
      System.out.println(markdown);
      Path out = Path.of("target", "bench", "cluster-cold-restart-benchmark.md");
      Files.createDirectories(out.getParent());
      Files.writeString(out, markdown);
      assertThat(armed)
          .as("each pending reminder armed on exactly one member (overdue ones may have fired)")
          .isBetween(PENDING, PENDING + OVERDUE);
      assertThat(fired.get()).isEqualTo(OVERDUE);
    } finally {
      engines.forEach(ReminderEngine::stop);
      timer.shutdownNow();
      cluster.close();
    }
  }

  /** Starts the members at once, as a restarted cluster's nodes boot in parallel. */
  private static void startMembers(TestCluster cluster) throws InterruptedException {
    List<Thread> starts = new ArrayList<>();
    for (int i = 0; i < TestCluster.SIZE; i++) {
      int member = i;
      Thread start = new Thread(() -> cluster.startMember(member), "start-member-" + member);
      start.start();
      starts.add(start);
    }
    for (Thread start : starts) {
      start.join();
    }
    cluster.awaitStableTopology(TestCluster.SIZE, PATIENCE);
  }

  private static void load(TestCluster cluster, String prefix, int count, long dueMillis, long now)
      throws IOException {
    long version = HybridLogicalClock.pack(now - 60_000, 0);
    Map<String, String> batch = new HashMap<>();
    for (int i = 0; i < count; i++) {
      ReminderRecord record =
          new ReminderRecord(
              ReminderId.of("restart", prefix + "-" + i),
              version,
              ReminderState.PENDING,
              new Schedule.Once(),
              dueMillis,
              1,
              null,
              null,
              MisfirePolicy.FIRE_ONCE,
              null,
              DeliveryMode.AT_MOST_ONCE,
              "payload-of-about-forty-bytes-like-a-json".getBytes(StandardCharsets.UTF_8),
              null,
              now - 60_000,
              now - 60_000);
      batch.put(record.id().cacheKey(), CacheValues.toCache(ReminderCodec.encode(record)));
      if (batch.size() == BATCH || i == count - 1) {
        cluster.cache(0).putAll(batch);
        batch.clear();
      }
    }
  }

  private static long millis(long from, long to) {
    return to == 0 ? -1 : (to - from) / 1_000_000;
  }
}
