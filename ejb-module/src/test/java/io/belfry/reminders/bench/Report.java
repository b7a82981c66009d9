package io.belfry.reminders.bench;

import static io.belfry.reminders.bench.EngineBenchmark.fmt;

import io.belfry.reminders.bench.BenchNode.Storage;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/** Collects the figures of one benchmark run and renders them as Markdown. */
final class Report {

  static final double TARGET_SETS = 20_000;
  static final double TARGET_FIRES = 20_000;
  static final double TARGET_P99_MILLIS = 10;
  static final double TARGET_BYTES = 300;

  private final List<String> notes = new ArrayList<>();
  private final List<String> sets = new ArrayList<>();
  private final List<String> bursts = new ArrayList<>();
  private final List<String> steadies = new ArrayList<>();
  private final List<String> heaps = new ArrayList<>();
  private int seq;

  private double bestSets = -1;
  private String bestSetsAt = "";
  private double fires = -1;
  private double p99At2000 = -1;
  private double bytesPerReminder = -1;
  private String heapAt = "";

  int seq() {
    return ++seq;
  }

  void line(String format, Object... args) {
    notes.add(fmt(format, args));
  }

  void sets(Storage storage, Load.Throughput t) {
    Histogram h = t.latencyMicros();
    sets.add(
        fmt(
            "| %s | %d | %,.0f | %,d | %,d | %,d |",
            storage.label,
            t.threads(),
            t.perSecond(),
            h.getValueAtPercentile(50),
            h.getValueAtPercentile(99),
            h.getMaxValue()));
    if (storage == Storage.FILE_STORE && t.perSecond() > bestSets) {
      bestSets = t.perSecond();
      bestSetsAt = t.threads() + " client threads";
    }
  }

  void burst(
      String label,
      int n,
      double perSecond,
      double seconds,
      int distinct,
      int delivered,
      boolean loadedInTime) {
    bursts.add(
        fmt(
            "| %s | %,d | %,.0f | %.2f | %,d | %,d | %s |",
            label, n, perSecond, seconds, delivered, distinct, loadedInTime ? "yes" : "NO"));
    if (label.equals(Storage.FILE_STORE.label)) {
      fires = perSecond;
    }
  }

  void steady(
      String label,
      int rate,
      int seconds,
      Histogram latenessMicros,
      double achieved,
      int distinct,
      int delivered,
      int early,
      boolean loadedInTime) {
    steadies.add(
        fmt(
            "| %s | %,d/s × %d s | %s | %s | %s | %s | %s | %,.0f | %,d / %,d | %d | %s |",
            label,
            rate,
            seconds,
            ms(latenessMicros.getValueAtPercentile(50)),
            ms(latenessMicros.getValueAtPercentile(90)),
            ms(latenessMicros.getValueAtPercentile(99)),
            ms(latenessMicros.getValueAtPercentile(99.9)),
            ms(latenessMicros.getMaxValue()),
            achieved,
            delivered,
            distinct,
            early,
            loadedInTime ? "yes" : "NO"));
    if (rate == 2_000 && label.equals(Storage.FILE_STORE.label)) {
      p99At2000 = latenessMicros.getValueAtPercentile(99) / 1_000.0;
    }
  }

  void heap(
      String label,
      int n,
      double loadRate,
      long before,
      long loaded,
      long cacheOnly,
      boolean armed) {
    double total = (double) (loaded - before) / n;
    double index = (double) (loaded - cacheOnly) / n;
    heaps.add(
        fmt(
            "| %s | %,d | %,.0f | %,d | %,d | %,.0f | %,.0f | %,.0f | %s |",
            label,
            n,
            loadRate,
            before >> 20,
            loaded >> 20,
            total,
            index,
            total - index,
            armed ? "yes" : "NO"));
    bytesPerReminder = total;
    heapAt = fmt("%,d pending, %s", n, label);
  }

  String markdown() {
    StringBuilder md = new StringBuilder("# Belfry engine benchmark\n\n");
    notes.forEach(n -> md.append(n).append("  \n"));
    md.append("\n## Against the targets (issue 3)\n\n")
        .append("| figure | measured | target | met |\n|---|---|---|---|\n")
        .append(
            row(
                "acknowledged sets/s (file store, best of 1/4/16 threads: " + bestSetsAt + ")",
                fmt("%,.0f", bestSets),
                "≥ 20,000",
                bestSets >= TARGET_SETS))
        .append(
            row(
                "fires/s (file store, same-instant burst)",
                fmt("%,.0f", fires),
                "≥ 20,000",
                fires >= TARGET_FIRES))
        .append(
            row(
                "fire lateness p99 at 2,000 fires/s (file store)",
                fmt("%.1f ms", p99At2000),
                "≤ 10 ms",
                p99At2000 >= 0 && p99At2000 <= TARGET_P99_MILLIS))
        .append(
            row(
                "heap per pending reminder (" + heapAt + ")",
                fmt("%,.0f B", bytesPerReminder),
                "≤ 300 B",
                bytesPerReminder >= 0 && bytesPerReminder <= TARGET_BYTES));
    md.append("\n## (1) Acknowledged sets\n\n")
        .append("One-shot reminders due in 30 days; each client thread calls `engine.set` in a")
        .append(" loop. Latency per set in µs.\n\n")
        .append("| store | client threads | sets/s | p50 µs | p99 µs | max µs |\n")
        .append("|---|---|---|---|---|---|\n");
    sets.forEach(r -> md.append(r).append('\n'));
    md.append("\n## (2) Fires of a burst\n\n")
        .append("N reminders all due at the same instant, loaded before it; fires/s = N / (last")
        .append(" delivery − due instant). Unless marked, the backlog limiter is opened up (rate")
        .append(" 10 M/s, lateness 1 h) to measure the commit path itself.\n\n")
        .append(
            "| configuration | N | fires/s | drain s | delivered | distinct | loaded before due |\n")
        .append("|---|---|---|---|---|---|---|\n");
    bursts.forEach(r -> md.append(r).append('\n'));
    md.append("\n## (3) Fire lateness at a steady rate\n\n")
        .append("Reminders due evenly spread at the rate (due times are whole milliseconds),")
        .append(" loaded before the first is due. Lateness = delivery wall time − due time, in ms")
        .append(" (HdrHistogram, µs resolution). Achieved = N / (last delivery − first due).\n\n")
        .append(
            "| store | rate × duration | p50 | p90 | p99 | p99.9 | max | achieved fires/s |"
                + " delivered / distinct | early | loaded before due |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    steadies.forEach(r -> md.append(r).append('\n'));
    md.append("\n## (4) Heap per pending reminder\n\n")
        .append("Used heap after `System.gc()` before and after loading; then the engine is")
        .append(" stopped (dropping its time index) and the heap measured again.\n\n")
        .append(
            "| store | reminders | load sets/s | heap before MiB | heap after MiB | B/reminder |"
                + " of which time index | of which cache + store | all armed |\n")
        .append("|---|---|---|---|---|---|---|---|---|\n");
    heaps.forEach(r -> md.append(r).append('\n'));
    return md.toString();
  }

  private static String row(String figure, String measured, String target, boolean met) {
    return fmt("| %s | %s | %s | %s |%n", figure, measured, target, met ? "yes" : "**no**");
  }

  private static String ms(long micros) {
    return fmt("%.2f", micros / 1_000.0);
  }
}
