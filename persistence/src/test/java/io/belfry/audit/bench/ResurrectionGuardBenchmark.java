package io.belfry.audit.bench;

import io.belfry.audit.AuditResurrectionGuard;
import io.belfry.audit.AuditSchema;
import io.belfry.reminders.fire.ResurrectionGuard.Candidate;
import io.belfry.reminders.model.ReminderId;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the resurrection guard's question costs on a large archive: {@value #KEYS} keys with a set
 * and a fire each ({@value #KEYS} × 2 rows), then chunks of {@value #CHUNK} random candidates, as a
 * node restarted onto a large overdue backlog asks before it fires them. The real {@link
 * AuditResurrectionGuard}, and for comparison the query it replaced (an IN list of parameters), on
 * fewer chunks: on H2 it reads the whole namespace each time.
 *
 * <p>Run: {@code mvn -B -pl persistence -am -Pbench test -Dtest=ResurrectionGuardBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}
 */
@Tag("benchmark")
class ResurrectionGuardBenchmark {

  private static final int KEYS = 500_000;
  private static final int CHUNK = 200;
  private static final int GUARD_CHUNKS = 200;
  private static final int IN_LIST_CHUNKS = 5;
  private static final String NAMESPACE = "bench";
  private static final String PG_SCHEMA = "belfry_guard_bench";

  @TempDir Path tmp;

  private final List<String> report = new ArrayList<>();

  @Test
  void guardOnALargeArchive() throws Exception {
    report.add(
        "| database | query | chunks | ms per chunk of " + CHUNK + " keys (mean) | max ms |");
    report.add("|---|---|---:|---:|---:|");
    try (Connection keep =
        DriverManager.getConnection(
            "jdbc:h2:file:" + tmp.resolve("audit") + ";DB_CLOSE_ON_EXIT=FALSE", "sa", "")) {
      measure("H2 (file)", BenchDatabases.singleConnection(keep), keep);
    }
    try (Connection keep = BenchDatabases.freshPostgres(PG_SCHEMA)) {
      measure(
          "PostgreSQL " + BenchDatabases.serverVersion(keep),
          BenchDatabases.singleConnection(keep),
          keep);
      BenchDatabases.dropSchema(keep, PG_SCHEMA);
    }
    System.out.println();
    System.out.println("=== The resurrection guard on an archive of " + KEYS * 2 + " rows ===");
    report.forEach(System.out::println);
  }

  private void measure(String database, DataSource dataSource, Connection connection)
      throws Exception {
    AuditSchema.migrate(dataSource);
    fill(connection);
    AuditResurrectionGuard guard = new AuditResurrectionGuard(dataSource);
    SplittableRandom random = new SplittableRandom(42);
    // a warm-up pass, then the measured one
    for (int pass = 0; pass < 2; pass++) {
      long total = 0;
      long max = 0;
      for (int c = 0; c < GUARD_CHUNKS; c++) {
        List<Candidate> chunk = new ArrayList<>(CHUNK);
        for (int i = 0; i < CHUNK; i++) {
          int k = random.nextInt(KEYS);
          chunk.add(new Candidate(ReminderId.of(NAMESPACE, "key-" + k), version(k)));
        }
        long start = System.nanoTime();
        int outlived = guard.outlived(chunk).size();
        long took = System.nanoTime() - start;
        if (outlived != chunk.stream().distinct().count()) {
          throw new AssertionError("every candidate fired, so every one is outlived");
        }
        total += took;
        max = Math.max(max, took);
      }
      if (pass == 1) {
        row(database, "the guard (UNNEST join)", GUARD_CHUNKS, total, max);
      }
    }
    String inList =
        "SELECT reminder_key, type, version FROM belfry_audit WHERE namespace = ? AND version >= ?"
            + " AND reminder_key IN ("
            + String.join(", ", Collections.nCopies(CHUNK, "?"))
            + ")";
    long total = 0;
    long max = 0;
    for (int c = 0; c < IN_LIST_CHUNKS; c++) {
      long start = System.nanoTime();
      try (PreparedStatement select = connection.prepareStatement(inList)) {
        select.setString(1, NAMESPACE);
        select.setLong(2, 0);
        for (int i = 0; i < CHUNK; i++) {
          select.setString(3 + i, "key-" + random.nextInt(KEYS));
        }
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) {
            rows.getString(1);
          }
        }
      }
      long took = System.nanoTime() - start;
      total += took;
      max = Math.max(max, took);
    }
    row(database, "IN list of parameters (before)", IN_LIST_CHUNKS, total, max);
  }

  private void row(String database, String query, int chunks, long totalNanos, long maxNanos) {
    report.add(
        String.format(
            Locale.ROOT,
            "| %s | %s | %d | %.1f | %.1f |",
            database,
            query,
            chunks,
            totalNanos / 1e6 / chunks,
            maxNanos / 1e6));
  }

  private static long version(int key) {
    return 1_000_000L + key;
  }

  /** A set and a fire of each key, in batches: what an archive holds after a backlog fired. */
  private static void fill(Connection connection) throws Exception {
    boolean autoCommit = connection.getAutoCommit();
    connection.setAutoCommit(false);
    Timestamp at = Timestamp.from(Instant.parse("2026-11-28T09:00:00Z"));
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO belfry_audit (activity_id, type, namespace, reminder_key, version,"
                + " occurrence, event_at, node) VALUES (?, ?, ?, ?, ?, 0, ?, 'node1')")) {
      int pending = 0;
      for (int k = 0; k < KEYS; k++) {
        for (String type : List.of("SET", "FIRED")) {
          insert.setString(1, type + "-" + k);
          insert.setString(2, type);
          insert.setString(3, NAMESPACE);
          insert.setString(4, "key-" + k);
          insert.setLong(5, version(k));
          insert.setTimestamp(6, at);
          insert.addBatch();
          if (++pending == 5_000) {
            insert.executeBatch();
            connection.commit();
            pending = 0;
          }
        }
      }
      insert.executeBatch();
      connection.commit();
    } finally {
      connection.setAutoCommit(autoCommit);
    }
  }
}
