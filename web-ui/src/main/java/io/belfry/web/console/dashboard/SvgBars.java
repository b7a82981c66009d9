package io.belfry.web.console.dashboard;

import java.util.List;

/** A bar chart as inline SVG text: no chart library, nothing fetched at run time. */
final class SvgBars {

  private SvgBars() {}

  /**
   * @param values one bar each, left to right
   * @param firstLabel under the first bar
   * @param lastLabel under the last bar
   */
  static String of(List<Long> values, String firstLabel, String lastLabel, String colour) {
    int width = 600;
    int height = 140;
    int plot = height - 24;
    long max = Math.max(1, values.stream().mapToLong(Long::longValue).max().orElse(1));
    double bar = (double) width / Math.max(1, values.size());
    StringBuilder svg =
        new StringBuilder()
            .append("<svg xmlns='http://www.w3.org/2000/svg' width='100%' viewBox='0 0 ")
            .append(width)
            .append(' ')
            .append(height)
            .append("' role='img'>");
    for (int i = 0; i < values.size(); i++) {
      long value = values.get(i);
      double h = value == 0 ? 0 : Math.max(1, (double) value / max * plot);
      svg.append(
          String.format(
              java.util.Locale.ROOT,
              "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'><title>%d</title></rect>",
              i * bar + 1,
              plot - h,
              Math.max(1, bar - 2),
              h,
              colour,
              value));
    }
    svg.append("<line x1='0' y1='")
        .append(plot)
        .append("' x2='")
        .append(width)
        .append("' y2='")
        .append(plot)
        .append("' stroke='#999'/>")
        .append("<text x='0' y='")
        .append(height - 6)
        .append("' font-size='12' fill='#666'>")
        .append(escape(firstLabel))
        .append("</text><text x='")
        .append(width)
        .append("' y='")
        .append(height - 6)
        .append("' font-size='12' fill='#666' text-anchor='end'>")
        .append(escape(lastLabel))
        .append("</text><text x='")
        .append(width)
        .append("' y='12' font-size='12' fill='#666' text-anchor='end'>max ")
        .append(max)
        .append("</text></svg>");
    return svg.toString();
  }

  static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("'", "&apos;");
  }
}
