package io.belfry.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the nodes of a cluster directory last logged, for the message of a script command that
 * failed: CI keeps only part of a failed run's output, and "cluster start 3 failed" alone does not
 * say which node did not come up, nor why.
 */
final class NodeLogs {

  /** How many of a log's last ERROR lines, and of a console's last lines, a summary carries. */
  private static final int LINES = 4;

  private NodeLogs() {}

  /** Each node directory's last ERROR lines of its server.log and last lines of its console. */
  static String summary(Path clusterDirectory) {
    if (!Files.isDirectory(clusterDirectory)) {
      return "(no cluster directory " + clusterDirectory + ")";
    }
    StringBuilder summary = new StringBuilder();
    try (Stream<Path> nodes = Files.list(clusterDirectory)) {
      nodes
          .filter(node -> node.getFileName().toString().matches("node\\d+"))
          .sorted()
          .forEach(
              node -> {
                summary.append(System.lineSeparator()).append(node.getFileName()).append(':');
                appendLines(summary, "server.log ERROR", errors(node.resolve("log/server.log")));
                appendLines(summary, "console.log", last(readLines(node.resolve("console.log"))));
              });
    } catch (IOException | UncheckedIOException e) {
      summary.append(System.lineSeparator()).append("(logs not readable: ").append(e).append(')');
    }
    return summary.toString();
  }

  private static List<String> errors(Path log) {
    return last(readLines(log).stream().filter(line -> line.contains(" ERROR ")).toList());
  }

  private static List<String> last(List<String> lines) {
    return lines.subList(Math.max(0, lines.size() - LINES), lines.size());
  }

  private static List<String> readLines(Path file) {
    try {
      return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.ISO_8859_1) : List.of();
    } catch (IOException e) {
      return List.of("(not readable: " + e + ")");
    }
  }

  private static void appendLines(StringBuilder summary, String what, List<String> lines) {
    summary.append(System.lineSeparator()).append("  ").append(what).append(':');
    if (lines.isEmpty()) {
      summary.append(" none");
    }
    for (String line : lines) {
      // a stack trace line of WildFly's can be thousands of characters long
      String shown = line.length() > 400 ? line.substring(0, 400) + "…" : line;
      summary.append(System.lineSeparator()).append("    ").append(shown);
    }
  }
}
