package io.belfry.reminders.bench;

import static io.belfry.reminders.bench.EngineBenchmark.fmt;
import static io.belfry.reminders.bench.EngineBenchmark.usedHeapAfterGc;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.bench.BenchNode.Storage;
import io.belfry.reminders.model.ReminderState;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heap per pending reminder on one node (issue 19), with every entry in memory and with memory
 * bounded to {@link BenchNode#MEMORY_ENTRIES} entries: used heap after {@code System.gc()} once the
 * reminders are loaded, armed (time index) and counted (key index, which listings, counts and the
 * console use), then after the engine stops (dropping both indexes: what remains is the cache's and
 * its store's); and how fast they went in (sets/s, four threads). The Soft-Index file store caches
 * its own index through soft references, which a GC keeps while the heap has room: run once more
 * with {@code -Dbench.jvm=-XX:SoftRefLRUPolicyMSPerMB=0} for what the node cannot do without. Not a
 * timed test: it asserts only that everything was armed and counted. Writes {@code
 * target/bench/heap-benchmark.md}.
 *
 * <p>Run with {@code mvn -B -pl ejb-module -am -Pbench test -Dtest=HeapBenchmark}; knobs {@code
 * bench.heapReminders} (1000000), {@code bench.memoryEntries} (10000) and {@code
 * bench.heapStorages} (BOUNDED_FILE_STORE,FILE_STORE).
 */
@Tag("benchmark")
class HeapBenchmark {

  private static final int REMINDERS = Integer.getInteger("bench.heapReminders", 1_000_000);

  /** {@code bench.heapStorages}: which {@link Storage}s to measure, in order. */
  private static final String STORAGES =
      System.getProperty("bench.heapStorages", "BOUNDED_FILE_STORE,FILE_STORE");

  @TempDir Path dir;

  private final List<String> rows = new ArrayList<>();

  @Test
  void heapPerPendingReminder() throws IOException {
    for (String storage : STORAGES.split(",")) {
      measure(Storage.valueOf(storage.trim()));
    }
    String md =
        fmt(
            "# Heap per pending reminder\n\nRun %s, %d cores, max heap %d MiB, Java %s, %s;"
                + " %,d one-shot reminders due in 30 days.\n\n"
                + "| store | load sets/s | B/reminder | of which time and key index"
                + " | of which cache and store |\n"
                + "|---|---:|---:|---:|---:|\n%s",
            Instant.now(),
            Runtime.getRuntime().availableProcessors(),
            Runtime.getRuntime().maxMemory() >> 20,
            System.getProperty("java.version"),
            softReferences(),
            REMINDERS,
            String.join("\n", rows) + "\n");
    Path out = Path.of("target", "bench", "heap-benchmark.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, md);
    System.out.println(md);
  }

  /** Whether the JVM keeps soft references (the file store's cache of its index) after a GC. */
  private static String softReferences() {
    boolean cleared =
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .anyMatch(a -> a.equals("-XX:SoftRefLRUPolicyMSPerMB=0"));
    return cleared ? "soft references cleared at every GC" : "soft references kept (JVM default)";
  }

  private void measure(Storage storage) {
    try (BenchNode node =
        BenchNode.start(dir.resolve(storage.name()), storage, BenchNode.UNTHROTTLED)) {
      // read (empty) now, as a started node soon reads it: sets of new keys then skip a store read
      assertThat(node.engine.keyIndex().count(null, ReminderState.PENDING)).isZero();
      long before = usedHeapAfterGc();
      long due = System.currentTimeMillis() + 30L * 24 * 3600 * 1000;
      double loadRate =
          Load.fixed(node.engine, "h", REMINDERS, EngineBenchmark.LOADER_THREADS, i -> due);
      assertThat(node.awaitArmed(REMINDERS, 600_000)).as("all armed").isTrue();
      assertThat(node.engine.keyIndex().count(null, ReminderState.PENDING))
          .as("keys indexed")
          .isEqualTo(REMINDERS);
      long loaded = usedHeapAfterGc();
      // stopping drops the time index and the key index: what remains is the cache's and store's
      node.engine.stop();
      long cacheOnly = usedHeapAfterGc();
      rows.add(
          fmt(
              "| %s | %,.0f | %,d | %,d | %,d |",
              storage == Storage.BOUNDED_FILE_STORE
                  ? fmt("%s to %,d entries", storage.label, BenchNode.MEMORY_ENTRIES)
                  : storage.label,
              loadRate,
              (loaded - before) / REMINDERS,
              (loaded - cacheOnly) / REMINDERS,
              (cacheOnly - before) / REMINDERS));
    }
  }
}
