package io.belfry.reminders.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.bench.BenchNode.Storage;
import io.belfry.reminders.fire.EngineSettings;
import io.belfry.reminders.model.ReminderCodec;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Figures of one engine node (issue 3, "Figures to measure and report"): acknowledged sets/s, fires
 * /s of a same-instant burst, fire lateness at a steady 2,000 fires/s and near the maximum rate,
 * and heap bytes per pending reminder. Not a timed test: it asserts only that every reminder fired
 * once (a benchmark of a broken engine is worthless), measures, and writes {@code
 * target/bench/engine-benchmark.md}.
 *
 * <p>Run with {@code mvn -B -pl ejb-module -am -Pbench test} (see {@code
 * docs/performance/engine.md}). Knobs, as system properties: {@code bench.setMillis} (5000), {@code
 * bench.steadySeconds} (20), {@code bench.maxSteadySeconds} (10), {@code bench.heapReminders}
 * (1000000).
 */
@Tag("benchmark")
class EngineBenchmark {

  static final int LOADER_THREADS = 4;
  private static final long SET_MILLIS = Long.getLong("bench.setMillis", 5_000);
  private static final int STEADY_SECONDS = Integer.getInteger("bench.steadySeconds", 20);
  private static final int MAX_STEADY_SECONDS = Integer.getInteger("bench.maxSteadySeconds", 10);
  private static final int HEAP_REMINDERS = Integer.getInteger("bench.heapReminders", 1_000_000);

  @TempDir Path dir;

  private final Report report = new Report();

  @Test
  void engine() throws IOException {
    report.line(
        "Run %s, %d cores, max heap %d MiB, Java %s",
        Instant.now(),
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20,
        System.getProperty("java.version"));
    report.line(
        "Reminder: one-shot, %d-char key in namespace `%s`, %d-byte payload; encoded value %d"
            + " bytes.",
        Load.KEY_LENGTH, Load.NAMESPACE, Load.PAYLOAD.length, encodedSize());

    double fileSetRate = sets(Storage.FILE_STORE);
    double memorySetRate = sets(Storage.MEMORY);

    double fileFireRate =
        burst(Storage.FILE_STORE, BenchNode.UNTHROTTLED, clamp(fileSetRate * 6, 20_000, 100_000));
    burst(Storage.MEMORY, BenchNode.UNTHROTTLED, clamp(memorySetRate * 4, 20_000, 200_000));
    burst(Storage.FILE_STORE, EngineSettings.DEFAULTS, 10_000);

    steady(Storage.FILE_STORE, 2_000, STEADY_SECONDS, fileSetRate);
    int maxRate = (int) (fileFireRate * 0.9 / 500) * 500;
    if (maxRate > 2_000) {
      steady(Storage.FILE_STORE, maxRate, MAX_STEADY_SECONDS, fileSetRate);
    }

    heap(Storage.FILE_STORE, HEAP_REMINDERS);

    String markdown = report.markdown();
    System.out.println(markdown);
    Path out = Path.of("target", "bench", "engine-benchmark.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, markdown);
  }

  // --- (1) Acknowledged sets/s ------------------------------------------------------------------

  private double sets(Storage storage) {
    double best = 0;
    try (BenchNode node = BenchNode.start(dir.resolve("sets-" + storage), storage, settings())) {
      Load.timed(node.engine, "w", LOADER_THREADS, 3_000); // JIT warm-up, not reported
      for (int threads : new int[] {1, 4, 16}) {
        Load.Throughput t = Load.timed(node.engine, "s" + threads + "-", threads, SET_MILLIS);
        report.sets(storage, t);
        if (threads == LOADER_THREADS) {
          best = t.perSecond();
        }
      }
    }
    return best;
  }

  // --- (2) Fires/s of a burst
  // ---------------------------------------------------------------------

  /** {@code n} reminders due at one instant; fires/s from that instant to the last delivery. */
  private double burst(Storage storage, EngineSettings settings, int n) {
    String label =
        storage.label + (settings == EngineSettings.DEFAULTS ? ", default settings" : "");
    try (BenchNode node =
        BenchNode.start(dir.resolve("burst-" + report.seq()), storage, settings)) {
      AtomicInteger delivered = new AtomicInteger();
      AtomicLong lastMicros = new AtomicLong();
      Set<String> keys = ConcurrentHashMap.newKeySet(n);
      node.onFire(
          fire -> {
            keys.add(fire.getKey());
            lastMicros.accumulateAndGet(nowMicros(), Math::max);
            delivered.incrementAndGet();
          });
      double setRate = Load.timed(node.engine, "w", LOADER_THREADS, 1_000).perSecond();
      long due = System.currentTimeMillis() + (long) (n / setRate * 1_500) + 2_000;
      Load.fixed(node.engine, "b", n, LOADER_THREADS, i -> due);
      boolean loadedInTime = System.currentTimeMillis() < due;
      awaitCount(delivered, n, due + 300_000);
      double seconds = (lastMicros.get() - due * 1_000) / 1e6;
      report.burst(label, n, n / seconds, seconds, keys.size(), delivered.get(), loadedInTime);
      assertThat(keys).hasSize(n);
      assertThat(delivered.get()).isEqualTo(n);
      return n / seconds;
    }
  }

  // --- (3) Lateness at a steady rate ------------------------------------------------------------

  private void steady(Storage storage, int rate, int seconds, double setRate) {
    try (BenchNode node = BenchNode.start(dir.resolve("steady-" + rate), storage, settings())) {
      SteadyRate.Result r = SteadyRate.measure(node, rate, seconds, setRate);
      report.steady(
          storage.label,
          rate,
          seconds,
          r.latenessMicros(),
          r.achieved(),
          r.distinct(),
          r.delivered(),
          r.early(),
          r.loadedInTime());
      assertThat(r.distinct()).isEqualTo(r.expected());
      assertThat(r.delivered()).isEqualTo(r.expected());
    }
  }

  // --- (4) Heap per pending reminder -------------------------------------------------------------

  private void heap(Storage storage, int n) {
    try (BenchNode node = BenchNode.start(dir.resolve("heap"), storage, settings())) {
      long before = usedHeapAfterGc();
      long due = System.currentTimeMillis() + 30L * 24 * 3600 * 1000;
      double loadRate = Load.fixed(node.engine, "h", n, LOADER_THREADS, i -> due);
      boolean armed = node.awaitArmed(n, 300_000);
      long loaded = usedHeapAfterGc();
      // Stopping the engine drops its time index; what remains is the cache's (and the store's).
      node.engine.stop();
      long cacheOnly = usedHeapAfterGc();
      report.heap(storage.label, n, loadRate, before, loaded, cacheOnly, armed);
      assertThat(armed).isTrue();
    }
  }

  // --- Helpers
  // ------------------------------------------------------------------------------------

  private static EngineSettings settings() {
    return BenchNode.UNTHROTTLED;
  }

  private static int encodedSize() {
    var spec = Load.once(Load.key("h", 1), System.currentTimeMillis());
    var record = BenchRecords.pending(spec, 1L << 40, System.currentTimeMillis());
    return ReminderCodec.encode(record).length;
  }

  private static int clamp(double v, int min, int max) {
    return (int) Math.max(min, Math.min(max, Math.round(v / 1_000) * 1_000));
  }

  static long nowMicros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
  }

  static void awaitCount(AtomicInteger counter, int expected, long deadlineMillis) {
    while (counter.get() < expected && System.currentTimeMillis() < deadlineMillis) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
    }
    // Let stragglers (duplicates, if any) arrive before counting.
    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
  }

  static long usedHeapAfterGc() {
    var memory = ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
      used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
    }
    return used;
  }

  static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
