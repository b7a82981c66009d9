package io.belfry.reminders.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.bench.BenchNode.Storage;
import io.belfry.reminders.engine.ListQuery;
import io.belfry.reminders.engine.RecordPage;
import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
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
      // the worst case of the index: a filter that only the last key matches reads every entry
      engine.cancel(ReminderId.of(namespace, Load.key("l", N - 1)));
      measure(
          report,
          "state filter only the last key matches (walks all)",
          () ->
              engine.list(
                  new ListQuery(null, null, ReminderState.CANCELLED, null, null, null, 50)));
    }
    Path out = Path.of("target", "bench", "list-benchmark.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, report);
    System.out.println(report);
  }

  private static void measure(StringBuilder report, String label, Supplier<RecordPage> page) {
    double[] millis = new double[RUNS];
    int items = 0;
    for (int i = 0; i < RUNS; i++) {
      long start = System.nanoTime();
      items = page.get().items().size();
      millis[i] = (System.nanoTime() - start) / 1e6;
    }
    assertThat(items).isPositive();
    Arrays.sort(millis);
    report.append(
        String.format(
            Locale.ROOT, "| %s | %.1f | %.1f | %d |%n", label, millis[RUNS / 2], millis[0], items));
  }
}
