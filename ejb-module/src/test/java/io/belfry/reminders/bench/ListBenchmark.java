package io.belfry.reminders.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.bench.BenchNode.Storage;
import io.belfry.reminders.engine.ListQuery;
import io.belfry.reminders.engine.RecordPage;
import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.store.KeyIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How long one page of {@link ReminderEngine#list} takes with many reminders stored: what the
 * console's grid and {@code GET /reminders} pay per page (issue 6: "fast at 1,000,000"). One node,
 * memory only (the file store adds nothing to a read of the in-memory replica). Writes {@code
 * target/bench/list-benchmark.md}. Knob: {@code bench.listReminders} (1000000).
 *
 * <p>Run: {@code mvn -B -pl ejb-module -am -Pbench test -Dtest=ListBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}
 */
@Tag("benchmark")
class ListBenchmark {

  private static final int N = Integer.getInteger("bench.listReminders", 1_000_000);
  private static final int RUNS = 5;

  @TempDir Path dir;

  @Test
  void pageTimes() throws IOException {
    StringBuilder report = new StringBuilder();
    report.append(
        String.format(
            Locale.ROOT,
            "# List benchmark%n%nRun %s, %d cores, %d reminders%n%n",
            Instant.now(),
            Runtime.getRuntime().availableProcessors(),
            N));
    try (BenchNode node =
        BenchNode.start(dir.resolve("list"), Storage.MEMORY, BenchNode.UNTHROTTLED)) {
      long due = System.currentTimeMillis() + 30L * 24 * 3600 * 1000;
      double rate = Load.fixed(node.engine, "l", N, 4, i -> due);
      report.append(
          String.format(
              Locale.ROOT,
              "Loaded at %.0f sets/s.%n%n| page | median ms | min ms | items |%n|---|---|---|---|%n",
              rate));
      ReminderEngine engine = node.engine;
      String namespace = Load.NAMESPACE;
      String middleKey = Load.key("l", N / 2);
      String middle = ReminderId.of(namespace, middleKey).cacheKey();
      String prefix = middleKey.substring(0, middleKey.length() - 1);
      measure(
          report,
          "first 50, no filter",
          () -> engine.list(new ListQuery(null, null, null, null, null, null, 50)));
      measure(
          report,
          "50 after a cursor",
          () -> engine.list(new ListQuery(null, null, null, null, null, middle, 50)));
      measure(
          report,
          "50 by namespace and key prefix",
          () -> engine.list(new ListQuery(namespace, prefix, null, null, null, null, 50)));
      measure(
          report,
          "state filter nothing matches (answered from the counts)",
          () ->
              engine
                  .list(new ListQuery(null, null, ReminderState.CANCELLED, null, null, null, 50))
                  .items()
                  .size(),
          0);
      Instant hoursBefore = Instant.ofEpochMilli(due - 2 * 3_600_000L);
      measure(
          report,
          "due filter nothing matches, hours away from every due time (answered from the counts)",
          () ->
              engine
                  .list(new ListQuery(null, null, null, null, hoursBefore, null, 50))
                  .items()
                  .size(),
          0);
      Instant past = Instant.ofEpochMilli(due - 1);
      measure(
          report,
          "due filter nothing matches, in the hour of due times (walks every summary, reads none)",
          () -> engine.list(new ListQuery(null, null, null, null, past, null, 50)).items().size(),
          0);
      // a filter that only the last key matches walks every summary and reads one entry
      engine.cancel(ReminderId.of(namespace, Load.key("l", N - 1)));
      measure(
          report,
          "state filter only the last key matches (walks all summaries)",
          () ->
              engine
                  .list(new ListQuery(null, null, ReminderState.CANCELLED, null, null, null, 50))
                  .items()
                  .size(),
          1);
      KeyIndex index = engine.keyIndex();
      measure(
          report,
          "live counts per namespace and segment (cluster view, dashboard, metrics)",
          () -> {
            index.liveBySegment();
            return index.liveByNamespace().size();
          },
          1);
      measure(
          report,
          "first read after a start (reads the replica into a new index)",
          () -> node.newKeyIndex().liveByNamespace().size(),
          1);
    }
    Path out = Path.of("target", "bench", "list-benchmark.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, report);
    System.out.println(report);
  }

  private static void measure(StringBuilder report, String label, Supplier<RecordPage> page) {
    measure(report, label, () -> page.get().items().size(), -1);
  }

  /** {@code items}: how many the call must answer, or -1 for at least one. */
  private static void measure(
      StringBuilder report, String label, IntSupplier call, int expectedItems) {
    double[] millis = new double[RUNS];
    int items = 0;
    for (int i = 0; i < RUNS; i++) {
      long start = System.nanoTime();
      items = call.getAsInt();
      millis[i] = (System.nanoTime() - start) / 1e6;
    }
    if (expectedItems < 0) {
      assertThat(items).isPositive();
    } else {
      assertThat(items).isEqualTo(expectedItems);
    }
    Arrays.sort(millis);
    report.append(
        String.format(
            Locale.ROOT, "| %s | %.1f | %.1f | %d |%n", label, millis[RUNS / 2], millis[0], items));
  }
}
