package io.belfry.benchmarks;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle;
import org.knowm.xchart.style.Styler.LegendLayout;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * The lateness percentiles of every system, one panel per fixed rate and instance count of workload
 * (a), drawn with XChart into one PNG: percentile on the x axis, lateness in ms on a logarithmic y
 * axis, a line per system.
 */
final class LatenessChart {

  private static final List<String> LABELS = List.of("p50", "p90", "p99", "p99.9", "max");

  /** The log axis cannot show 0: readings below this (10 µs) are drawn at it. */
  private static final double FLOOR_MILLIS = 0.01;

  /** One colour per system in every panel. */
  private static final Map<String, Color> COLORS =
      Map.of(
          Results.BELFRY,
          new Color(0x1f77b4),
          Results.BELFRY + " + audit",
          new Color(0x9467bd),
          Results.WILDFLY,
          new Color(0xff7f0e),
          Results.DB_SCHEDULER,
          new Color(0x2ca02c),
          Results.QUARTZ,
          new Color(0xd62728));

  private LatenessChart() {}

  static void write(Map<String, Map<String, double[]>> series, Path png) throws IOException {
    List<CategoryChart> charts = new ArrayList<>();
    for (var panel : series.entrySet()) {
      List<String> systems = new ArrayList<>(panel.getValue().keySet());
      systems.sort(java.util.Comparator.comparingInt(Results::order));
      CategoryChart chart =
          new CategoryChartBuilder()
              .width(520)
              .height(380)
              .title("Lateness at " + panel.getKey())
              .xAxisTitle("percentile")
              .yAxisTitle("ms (log)")
              .build();
      chart.getStyler().setDefaultSeriesRenderStyle(CategorySeriesRenderStyle.Line);
      chart.getStyler().setYAxisLogarithmic(true);
      chart.getStyler().setLegendPosition(LegendPosition.OutsideS);
      chart.getStyler().setLegendLayout(LegendLayout.Horizontal);
      chart.getStyler().setYAxisDecimalPattern("#,##0.##");
      for (String system : systems) {
        List<Double> ms =
            Arrays.stream(panel.getValue().get(system))
                .map(v -> Math.max(v, FLOOR_MILLIS))
                .boxed()
                .toList();
        var line = chart.addSeries(system, LABELS, ms);
        Color color = COLORS.getOrDefault(system, Color.GRAY);
        line.setLineColor(color);
        line.setMarkerColor(color);
      }
      charts.add(chart);
    }
    if (charts.isEmpty()) {
      return;
    }
    Files.createDirectories(png.toAbsolutePath().getParent());
    // XChart fills every cell of the grid: the widest grid of at most 3 columns that n fills.
    int cols = charts.size() % 3 == 0 ? 3 : charts.size() % 2 == 0 ? 2 : 1;
    int rows = charts.size() / cols;
    String name = png.toString();
    BitmapEncoder.saveBitmap(
        charts, rows, cols, name.substring(0, name.length() - 4), BitmapFormat.PNG);
  }
}
