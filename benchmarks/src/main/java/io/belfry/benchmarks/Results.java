package io.belfry.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Every figure of a run, by group (instances), figure and system, rendered as one Markdown table
 * per group with the ratio Belfry/peer of every figure; and the lateness percentiles the chart
 * draws.
 */
final class Results {

  static final String BELFRY = "Belfry";
  static final String DB_SCHEDULER = "db-scheduler";
  static final String QUARTZ = "Quartz";

  /**
   * Belfry deployed in a provisioned WildFly server, driven from inside it ({@link WildFlyBench}).
   */
  static final String WILDFLY = "Belfry on WildFly";

  static final List<String> PEERS = List.of(DB_SCHEDULER, QUARTZ);

  /** Percentiles the chart and the lateness rows show. */
  static final double[] PERCENTILES = {50, 90, 99, 99.9, 100};

  /** Whether more is better (throughput) or less (lateness, CPU, memory, errors). */
  enum Better {
    HIGHER,
    LOWER
  }

  record Row(String figure, Better better, String format, Map<String, Double> values) {}

  private final Map<String, Map<String, Row>> groups = new LinkedHashMap<>();
  private final Map<String, Map<String, double[]>> lateness = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();

  synchronized void put(
      String group, String system, String figure, Better better, String format, double value) {
    groups
        .computeIfAbsent(group, g -> new LinkedHashMap<>())
        .computeIfAbsent(figure, f -> new Row(f, better, format, new LinkedHashMap<>()))
        .values()
        .put(system, value);
  }

  /** Lateness percentiles (ms) of one system in one chart series, e.g. "2,000/s". */
  synchronized void lateness(String series, String system, Histogram micros) {
    double[] ms = new double[PERCENTILES.length];
    for (int i = 0; i < ms.length; i++) {
      ms[i] =
          (PERCENTILES[i] >= 100
                  ? micros.getMaxValue()
                  : micros.getValueAtPercentile(PERCENTILES[i]))
              / 1_000.0;
    }
    lateness.computeIfAbsent(series, s -> new LinkedHashMap<>()).put(system, ms);
  }

  synchronized Map<String, Map<String, double[]>> lateness() {
    return lateness;
  }

  synchronized void note(String format, Object... args) {
    notes.add(String.format(Locale.ROOT, format, args));
  }

  synchronized List<String> notes() {
    return List.copyOf(notes);
  }

  /** One table per group: figure, each system, Belfry/peer for each peer, and which is best. */
  synchronized String markdown() {
    StringBuilder md = new StringBuilder();
    for (var group : groups.entrySet()) {
      List<String> systems = systemsOf(group.getValue());
      md.append("#### ").append(group.getKey()).append("\n\n| figure |");
      systems.forEach(s -> md.append(' ').append(s).append(" |"));
      List<String[]> ratios = ratios(systems);
      ratios.forEach(r -> md.append(' ').append(label(r[0])).append('/').append(r[1]).append(" |"));
      md.append(" best |\n|---|");
      systems.forEach(s -> md.append("---:|"));
      ratios.forEach(r -> md.append("---:|"));
      md.append("---|\n");
      for (Row row : group.getValue().values()) {
        md.append("| ").append(row.figure()).append(" |");
        for (String s : systems) {
          Double v = row.values().get(s);
          md.append(' ').append(v == null ? "–" : format(row.format(), v)).append(" |");
        }
        for (String[] r : ratios) {
          md.append(' ').append(ratio(row.values().get(r[0]), row.values().get(r[1]))).append(" |");
        }
        md.append(' ').append(best(row)).append(" |\n");
      }
      md.append('\n');
    }
    return md.toString();
  }

  /**
   * The ratio columns, numerator and denominator: Belfry over each peer; Belfry on WildFly over
   * each peer and over Belfry in-JVM.
   */
  private static List<String[]> ratios(List<String> systems) {
    List<String[]> ratios = new ArrayList<>();
    for (String belfry : List.of(BELFRY, WILDFLY)) {
      if (!systems.contains(belfry)) {
        continue;
      }
      for (String other : systems) {
        if (PEERS.contains(other) || belfry.equals(WILDFLY) && other.equals(BELFRY)) {
          ratios.add(new String[] {belfry, other});
        }
      }
    }
    return ratios;
  }

  private static String label(String system) {
    return system.equals(WILDFLY) ? "on WildFly" : system;
  }

  // --- Export and import: the figures measured inside the WildFly server travel to the harness ---

  /**
   * Every figure, lateness series and note as tab-separated lines (kind, then fields), for {@link
   * #merge}.
   */
  synchronized String export() {
    StringBuilder out = new StringBuilder();
    for (var group : groups.entrySet()) {
      for (Row row : group.getValue().values()) {
        for (var v : row.values().entrySet()) {
          out.append(
              String.join(
                  "\t",
                  "R",
                  group.getKey(),
                  v.getKey(),
                  row.figure(),
                  row.better().name(),
                  row.format(),
                  Double.toString(v.getValue())));
          out.append('\n');
        }
      }
    }
    for (var series : lateness.entrySet()) {
      for (var v : series.getValue().entrySet()) {
        StringBuilder ms = new StringBuilder();
        for (double d : v.getValue()) {
          ms.append(ms.isEmpty() ? "" : ",").append(d);
        }
        out.append(String.join("\t", "L", series.getKey(), v.getKey(), ms)).append('\n');
      }
    }
    for (String note : notes) {
      out.append("N\t").append(note.replace('\t', ' ').replace('\n', ' ')).append('\n');
    }
    return out.toString();
  }

  /** Adds what {@link #export} wrote (in another JVM) to these results. */
  synchronized void merge(String exported) {
    for (String line : exported.split("\n")) {
      String[] f = line.split("\t", -1);
      switch (f[0]) {
        case "R" -> put(f[1], f[2], f[3], Better.valueOf(f[4]), f[5], Double.parseDouble(f[6]));
        case "L" -> {
          String[] parts = f[3].split(",");
          double[] ms = new double[parts.length];
          for (int i = 0; i < ms.length; i++) {
            ms[i] = Double.parseDouble(parts[i]);
          }
          lateness.computeIfAbsent(f[1], s -> new LinkedHashMap<>()).put(f[2], ms);
        }
        case "N" -> notes.add(f[1]);
        default -> {
          if (!line.isBlank()) {
            throw new IllegalArgumentException("not an exported result: " + line);
          }
        }
      }
    }
  }

  private static List<String> systemsOf(Map<String, Row> rows) {
    List<String> systems = new ArrayList<>();
    for (Row row : rows.values()) {
      for (String s : row.values().keySet()) {
        if (!systems.contains(s)) {
          systems.add(s);
        }
      }
    }
    systems.sort(
        (a, b) ->
            Integer.compare(order(a), order(b)) != 0
                ? Integer.compare(order(a), order(b))
                : a.compareTo(b));
    return systems;
  }

  static int order(String system) {
    return system.equals(BELFRY)
        ? 0
        : system.equals(WILDFLY)
            ? 1
            : system.startsWith(BELFRY) ? 2 : system.equals(DB_SCHEDULER) ? 3 : 4;
  }

  private static String ratio(Double belfry, Double peer) {
    if (belfry == null || peer == null || belfry.isNaN() || peer.isNaN()) {
      return "–";
    }
    if (peer == 0) {
      return belfry == 0 ? "=" : "∞";
    }
    return String.format(Locale.ROOT, "%.2f", belfry / peer);
  }

  /** The system with the best value, "tie", or "–" when fewer than two systems have one. */
  private static String best(Row row) {
    if (row.values().values().stream().filter(v -> !v.isNaN()).count() < 2) {
      return "–";
    }
    String best = null;
    double bestValue = 0;
    boolean tie = false;
    for (var e : row.values().entrySet()) {
      double v = e.getValue();
      if (Double.isNaN(v)) {
        continue;
      }
      boolean better = row.better() == Better.HIGHER ? v > bestValue : v < bestValue;
      if (best == null || better) {
        best = e.getKey();
        bestValue = v;
        tie = false;
      } else if (v == bestValue) {
        tie = true;
      }
    }
    return best == null ? "–" : tie ? "tie" : best;
  }

  static String format(String format, double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, format, v);
  }
}
