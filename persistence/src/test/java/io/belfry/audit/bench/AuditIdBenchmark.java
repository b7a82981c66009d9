package io.belfry.audit.bench;

import io.belfry.audit.ActivityIds;
import io.belfry.audit.AuditRows;
import io.belfry.audit.AuditSchema;
import io.belfry.audit.PendingAudit;
import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.api.ReminderActivity.Type;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.function.Function;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an audit row costs with random activity ids against time-ordered ones ({@link ActivityIds}):
 * the real {@link AuditRows} on a table that already holds {@value #FILLED} rows, then rows in
 * small commits, as the writer commits them when sets arrive one by one. Reports the JVM's CPU per
 * row (H2 runs inside it; PostgreSQL does not, so its wall time per row too).
 *
 * <p>Run: {@code mvn -B -pl persistence -am -Pbench test -Dtest=AuditIdBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}
 */
@Tag("benchmark")
class AuditIdBenchmark {

  private static final int FILLED = 300_000;
  private static final int MEASURED = 20_000;
  private static final int PER_COMMIT = 20;
  private static final String PG_SCHEMA = "belfry_audit_id_bench";

  @TempDir Path tmp;

  private final List<String> report = new ArrayList<>();

  @Test
  void randomAgainstTimeOrderedIds() throws Exception {
    report.add("| database | activity ids | JVM CPU µs per row | wall µs per row |");
    report.add("|---|---|---:|---:|");
    for (String kind : List.of("random", "time-ordered")) {
      Path dir = tmp.resolve("h2-" + kind);
      try (Connection keep =
          DriverManager.getConnection(
              "jdbc:h2:file:" + dir.resolve("audit") + ";DB_CLOSE_ON_EXIT=FALSE", "sa", "")) {
        measure("H2 (file)", kind, BenchDatabases.singleConnection(keep));
      }
    }
    for (String kind : List.of("random", "time-ordered")) {
      try (Connection keep = BenchDatabases.freshPostgres(PG_SCHEMA)) {
        measure("PostgreSQL", kind, BenchDatabases.singleConnection(keep));
        BenchDatabases.dropSchema(keep, PG_SCHEMA);
      }
    }
    System.out.println();
    System.out.println("=== Audit rows: random against time-ordered activity ids ===");
    report.forEach(System.out::println);
  }

  private void measure(String database, String kind, DataSource dataSource) throws Exception {
    AuditSchema.migrate(dataSource);
    Function<Instant, String> ids =
        kind.equals("random") ? at -> UUID.randomUUID().toString() : ActivityIds::timeOrdered;
    AuditRows rows = new AuditRows(dataSource);
    for (int i = 0; i < FILLED; i += 1_000) {
      rows.insert(batch(ids, 1_000));
    }
    var os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    // three rounds; the last, with the JIT settled, is reported
    for (int round = 0; round < 3; round++) {
      long cpu = os.getProcessCpuTime();
      long wall = System.nanoTime();
      for (int i = 0; i < MEASURED; i += PER_COMMIT) {
        rows.insert(batch(ids, PER_COMMIT));
      }
      cpu = os.getProcessCpuTime() - cpu;
      wall = System.nanoTime() - wall;
      if (round == 2) {
        report.add(
            String.format(
                Locale.ROOT,
                "| %s | %s | %.0f | %.0f |",
                database,
                kind,
                cpu / 1e3 / MEASURED,
                wall / 1e3 / MEASURED));
      }
    }
  }

  private static List<PendingAudit> batch(Function<Instant, String> ids, int size) {
    List<PendingAudit> batch = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      Instant at = Instant.now();
      ReminderActivity set =
          new ReminderActivity(
              Type.SET, "bench", "order-" + UUID.randomUUID(), 1, 0, at, at, "node1", null);
      batch.add(new PendingAudit(ids.apply(at), set, at));
    }
    return batch;
  }
}
