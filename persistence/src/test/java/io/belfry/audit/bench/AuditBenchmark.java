package io.belfry.audit.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.audit.AuditSchema;
import io.belfry.audit.AuditWriterHarness;
import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.api.ReminderActivity.Type;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 4 figures for the audit archive, on the real {@code AuditWriter} / {@code AuditPipeline} /
 * {@code AuditRows} outside the container.
 *
 * <ol>
 *   <li>Records written per second: N activities queued as fast as one thread can, timed until the
 *       writer's own written count reaches N; on H2 (file database in a temp dir, the server's URL
 *       shape) and on PostgreSQL (127.0.0.1:5432/test, a fresh schema per run).
 *   <li>The audit's cost on the firing path at 2,000 fires/s for 10 s: a paced loop stands in for
 *       the engine's firing thread; per tick it measures its own lateness against the schedule and,
 *       with audit on, the time spent in the observer (the enqueue) while the writer drains to
 *       PostgreSQL. This is not the engine's end-to-end fire lateness.
 * </ol>
 *
 * Run: {@code mvn -B -pl persistence -am -Pbench test -Dtest=AuditBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}
 */
@Tag("benchmark")
class AuditBenchmark {

  private static final String PG_SCHEMA = "belfry_audit_bench";
  private static final int N = 100_000;
  // below AuditPipeline.DEFAULT_CAPACITY (50,000): the in-memory path only, no spill
  private static final int N_SMALL = 40_000;
  private static final int RATE = 2_000;
  private static final int SECONDS = 10;
  private static final Instant BASE = Instant.parse("2026-11-21T10:00:00Z");

  @TempDir Path tmp;

  private final List<String> report = new ArrayList<>();

  @Test
  void audit() throws Exception {
    System.setProperty("jboss.server.data.dir", tmp.resolve("data").toString());
    report.add("| database | records queued | queue s | written by s | records/s | spilled |");
    report.add("|---|---|---|---|---|---|");

    for (int n : new int[] {N_SMALL, N}) {
      Path dir = tmp.resolve("h2-" + n);
      try (Connection keep =
          DriverManager.getConnection(
              "jdbc:h2:file:" + dir.resolve("audit") + ";DB_CLOSE_ON_EXIT=FALSE", "sa", "")) {
        DataSource h2 = BenchDatabases.singleConnection(keep);
        AuditSchema.migrate(h2);
        throughput("H2 " + org.h2.engine.Constants.VERSION + " (file)", h2, n, "h2-" + n);
      }
    }
    for (int n : new int[] {N_SMALL, N}) {
      try (Connection keep = BenchDatabases.freshPostgres(PG_SCHEMA)) {
        DataSource pg = BenchDatabases.singleConnection(keep);
        AuditSchema.migrate(pg);
        throughput("PostgreSQL " + BenchDatabases.serverVersion(keep), pg, n, "pg-" + n);
      }
    }

    report.add("");
    report.add(
        "| audit | fires | loop lateness p50 ms | p99 ms | p99.9 ms | max ms |"
            + " observer p50 µs | p99 µs | p99.9 µs | max µs | written by end + 10 s |");
    report.add("|---|---|---|---|---|---|---|---|---|---|---|");
    firingLoop(null, "off");
    try (Connection keep = BenchDatabases.freshPostgres(PG_SCHEMA)) {
      DataSource pg = BenchDatabases.singleConnection(keep);
      AuditSchema.migrate(pg);
      try (AuditWriterHarness audit = new AuditWriterHarness(pg, "bench-fire")) {
        firingLoop(audit, "on (PostgreSQL)");
      }
      BenchDatabases.dropSchema(keep, PG_SCHEMA);
    }

    System.out.println();
    System.out.println("=== Audit benchmark (issue 4) ===");
    report.forEach(System.out::println);
  }

  private void throughput(String label, DataSource dataSource, int n, String module)
      throws Exception {
    try (AuditWriterHarness audit = new AuditWriterHarness(dataSource, module)) {
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        audit.observe(activity(i));
      }
      long queued = System.nanoTime();
      boolean done = audit.awaitWritten(n, Duration.ofSeconds(90));
      long end = System.nanoTime();
      long written = audit.writer().recordsWritten();
      assertThat(done).as("%s: %d of %d written", label, written, n).isTrue();
      double seconds = (end - start) / 1e9;
      report.add(
          String.format(
              Locale.ROOT,
              "| %s | %,d | %.2f | %.2f | %,.0f | %,d |",
              label,
              n,
              (queued - start) / 1e9,
              seconds,
              n / seconds,
              audit.writer().recordsSpilled()));
    }
  }

  /** Fires at RATE/s for SECONDS on this thread; audit null means audit off. */
  private void firingLoop(AuditWriterHarness audit, String label) throws Exception {
    int fires = RATE * SECONDS;
    long period = 1_000_000_000L / RATE;
    long[] lateness = new long[fires];
    long[] observer = new long[fires];
    // warm-up: the observer path and the writer, a second at the same rate, not recorded
    pace(audit, RATE, period, new long[RATE], new long[RATE], -1);
    pace(audit, fires, period, lateness, observer, 0);
    long written = 0;
    if (audit != null) {
      audit.awaitWritten(fires + RATE, Duration.ofSeconds(10));
      written = audit.writer().recordsWritten();
    }
    Arrays.sort(lateness);
    Arrays.sort(observer);
    report.add(
        String.format(
            Locale.ROOT,
            "| %s | %,d | %.3f | %.3f | %.3f | %.3f | %s | %s |",
            label,
            fires,
            pct(lateness, 50) / 1e6,
            pct(lateness, 99) / 1e6,
            pct(lateness, 99.9) / 1e6,
            lateness[fires - 1] / 1e6,
            audit == null
                ? "– | – | – | –"
                : String.format(
                    Locale.ROOT,
                    "%.2f | %.2f | %.2f | %.1f",
                    pct(observer, 50) / 1e3,
                    pct(observer, 99) / 1e3,
                    pct(observer, 99.9) / 1e3,
                    observer[fires - 1] / 1e3),
            audit == null ? "–" : String.format(Locale.ROOT, "%,d of %,d", written, fires + RATE)));
  }

  private static void pace(
      AuditWriterHarness audit, int fires, long period, long[] lateness, long[] observer, int base)
      throws InterruptedException {
    long start = System.nanoTime() + 10_000_000L;
    for (int i = 0; i < fires; i++) {
      long due = start + i * period;
      long now;
      while ((now = System.nanoTime()) < due) {
        long left = due - now;
        if (left > 200_000) {
          LockSupport.parkNanos(left - 100_000);
        } else {
          Thread.onSpinWait();
        }
      }
      lateness[i] = now - due;
      if (audit != null) {
        long t0 = System.nanoTime();
        audit.observe(activity(base < 0 ? 10_000_000 + i : i));
        observer[i] = System.nanoTime() - t0;
      }
    }
  }

  private static long pct(long[] sorted, double p) {
    int index = (int) Math.ceil(p / 100 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  private static ReminderActivity activity(int i) {
    Instant at = BASE.plusMillis(i);
    return new ReminderActivity(
        Type.FIRED, "bench", "k" + i, 1, 1, at.minusMillis(3), at, "node1", null);
  }
}
