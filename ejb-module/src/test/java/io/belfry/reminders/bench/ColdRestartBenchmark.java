package io.belfry.reminders.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.bench.BenchNode.Storage;
import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.fire.EngineListener;
import io.belfry.reminders.model.ReminderId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cold restart of one node with a large store: {@value #DEFAULT_PENDING} pending reminders due in
 * 30 days in the Soft-Index file store, plus {@value #OVERDUE} that fell due while the node was
 * down. Measured from the moment the cache manager starts (preload) to the end of the engine's
 * recovery scan (everything armed) and to the first overdue fire. One node in one JVM: a three-node
 * cluster preloads on every node in parallel and adds the join.
 *
 * <p>{@code mvn -B -pl ejb-module -am -Pbench test -Dtest=ColdRestartBenchmark}; knobs {@code
 * bench.restartReminders} ({@value #DEFAULT_PENDING}) and {@code bench.restartStorage} (FILE_STORE,
 * or BOUNDED_FILE_STORE with {@code bench.memoryEntries}).
 */
@Tag("benchmark")
class ColdRestartBenchmark {

  static final int DEFAULT_PENDING = 1_000_000;
  static final int OVERDUE = 1_000;
  private static final int PENDING = Integer.getInteger("bench.restartReminders", DEFAULT_PENDING);

  /** {@code bench.restartStorage}: FILE_STORE (every entry in memory) or BOUNDED_FILE_STORE. */
  private static final Storage STORAGE =
      Storage.valueOf(System.getProperty("bench.restartStorage", Storage.FILE_STORE.name()));

  @TempDir Path dir;

  @Test
  void coldRestart() throws IOException {
    Path home = dir.resolve("restart");
    double loadRate;
    try (BenchNode node = BenchNode.start(home, STORAGE, BenchNode.UNTHROTTLED)) {
      long later = System.currentTimeMillis() + 30L * 24 * 3600 * 1000;
      loadRate = Load.fixed(node.engine, "p", PENDING, EngineBenchmark.LOADER_THREADS, i -> later);
      // with the scheduler stopped, these fall due while the node is "down"
      node.engine.stop();
      Instant due = Instant.now();
      for (int i = 0; i < OVERDUE; i++) {
        node.engine.set(
            ReminderSpec.once(ReminderId.of(Load.NAMESPACE, "overdue-" + i), due, null));
      }
    }

    AtomicLong firstFireNanos = new AtomicLong();
    AtomicInteger fired = new AtomicInteger();
    // counted by the listener, which the engine has from its start: the first fires may come
    // before start() returns
    EngineListener counter =
        new EngineListener() {
          @Override
          public void fired(ReminderFired fire) {
            firstFireNanos.compareAndSet(0, System.nanoTime());
            fired.incrementAndGet();
          }
        };
    long startNanos = System.nanoTime();
    try (BenchNode node = BenchNode.start(home, STORAGE, BenchNode.UNTHROTTLED, counter)) {
      long armedNanos = System.nanoTime();
      int armed = node.engine.armedCount();
      EngineBenchmark.awaitCount(fired, OVERDUE, System.currentTimeMillis() + 120_000);
      long allOverdueNanos = System.nanoTime();
      String markdown =
          String.format(
              Locale.ROOT,
              "## Cold restart, one node (%s, %s)%n%n"
                  + "| pending | overdue | load sets/s | cache start (preload) | engine recovery"
                  + " | start to all armed | start to first fire | engine start to first fire"
                  + " | start to all overdue fired | armed |%n"
                  + "|---|---|---|---|---|---|---|---|---|---|%n"
                  + "| %,d | %,d | %,.0f | %,d ms | %,d ms | %,d ms | %,d ms | %,d ms | %,d ms"
                  + " | %,d |%n",
              Instant.now(),
              STORAGE.label,
              PENDING,
              OVERDUE,
              loadRate,
              node.cacheStartMillis,
              node.engineStartMillis,
              (armedNanos - startNanos) / 1_000_000,
              (firstFireNanos.get() - startNanos) / 1_000_000,
              (firstFireNanos.get() - node.engineStartNanos) / 1_000_000,
              (allOverdueNanos - startNanos) / 1_000_000,
              armed);
      System.out.println(markdown);
      Path out = Path.of("target", "bench", "cold-restart-benchmark.md");
      Files.createDirectories(out.getParent());
      Files.writeString(out, markdown);
      assertThat(armed).isGreaterThanOrEqualTo(PENDING);
      assertThat(fired.get()).isEqualTo(OVERDUE);
    }
  }
}
