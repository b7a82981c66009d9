package io.belfry.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.cluster.Api.AuditRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Reading fires back from the shared audit table, and reporting figures. */
final class Fires {

  private Fires() {}

  /** The FIRED records of these keys since {@code since}, grouped by key. */
  static Map<String, List<AuditRecord>> byKey(Api api, Instant since, Collection<String> keys)
      throws IOException {
    return byKey(api, "FIRED", since, keys);
  }

  /** The audit records of this type of these keys since {@code since}, grouped by key. */
  static Map<String, List<AuditRecord>> byKey(
      Api api, String type, Instant since, Collection<String> keys) throws IOException {
    return api.audit(type, since).stream()
        .filter(r -> keys.contains(r.key()))
        .collect(Collectors.groupingBy(AuditRecord::key));
  }

  /**
   * Asserts that each key's list holds exactly one record. The failure's first line names every key
   * that has more or fewer, with its records (node, version, time): a CI log shows only the start
   * of a failure, and a duplicate is diagnosed from who fired what when.
   */
  static void assertOnceEach(String what, Map<String, List<AuditRecord>> byKey) {
    Map<String, List<AuditRecord>> notOnce =
        byKey.entrySet().stream()
            .filter(e -> e.getValue().size() != 1)
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    assertThat(notOnce)
        .as(
            () ->
                what
                    + ": "
                    + notOnce.entrySet().stream()
                        .map(e -> e.getKey() + " " + describe(e.getValue()))
                        .collect(Collectors.joining("; ")))
        .isEmpty();
  }

  private static String describe(List<AuditRecord> records) {
    return records.stream()
        .map(r -> r.type() + " by " + r.node() + " v" + r.version() + " at " + r.at())
        .collect(Collectors.joining(", ", "[", "]"));
  }

  /**
   * Polls the audit until every key in {@code keys} has at least one FIRED record or the deadline
   * passes; returns the last read.
   */
  static Map<String, List<AuditRecord>> await(
      Api api, Instant since, Collection<String> keys, Instant deadline)
      throws IOException, InterruptedException {
    return await(api, "FIRED", since, keys, deadline);
  }

  /** Like {@link #await(Api, Instant, Collection, Instant)} for records of {@code type}. */
  static Map<String, List<AuditRecord>> await(
      Api api, String type, Instant since, Collection<String> keys, Instant deadline)
      throws IOException, InterruptedException {
    Map<String, List<AuditRecord>> found = byKey(api, type, since, keys);
    while (found.size() < keys.size() && Instant.now().isBefore(deadline)) {
      Thread.sleep(1_000);
      found = byKey(api, type, since, keys);
    }
    return found;
  }

  /** p50 / p99 / max of the lateness of these records, as a table row. */
  static String latenessRow(String label, List<AuditRecord> records) {
    long[] lateness =
        records.stream()
            .mapToLong(r -> r.latenessMs() == null ? 0 : r.latenessMs())
            .sorted()
            .toArray();
    if (lateness.length == 0) {
      return String.format(Locale.ROOT, "| %s | 0 | - | - | - |%n", label);
    }
    return String.format(
        Locale.ROOT,
        "| %s | %d | %d | %d | %d |%n",
        label,
        lateness.length,
        lateness[(int) Math.floor(0.50 * (lateness.length - 1))],
        lateness[(int) Math.floor(0.99 * (lateness.length - 1))],
        lateness[lateness.length - 1]);
  }

  /** Appends to target/cluster-figures.md and prints. */
  static void report(String text) throws IOException {
    Path out = Path.of("target", "cluster-figures.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    System.out.print(text);
  }
}
