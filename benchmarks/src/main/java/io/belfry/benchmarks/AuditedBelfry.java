package io.belfry.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.belfry.audit.AuditSchema;
import io.belfry.audit.AuditWriter;
import io.belfry.audit.AuditWriterHarness;
import io.belfry.reminders.bench.BenchNode.Storage;
import io.belfry.reminders.cdi.ActivityAnnouncers;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * Belfry, one node, with the audit on: the engine's listener is the real {@code ActivityAnnouncer},
 * whose event calls the real {@link AuditWriter} synchronously (as Weld would; its dispatch is the
 * one part left out), which queues into the real pipeline; its writer thread inserts into the audit
 * table (schema {@value AuditSchema#LOCATION}, migrated by Flyway) in the harness's PostgreSQL
 * schema through a HikariCP pool. Every set adds a SET record and every fire a FIRED record, off
 * the firing path.
 */
final class AuditedBelfry implements Contender {

  private static final String NODE = "bench";

  private final HikariDataSource pool;
  private final AuditWriterHarness harness;
  private final BelfryContender belfry;
  private final Results results;
  private final String group;

  AuditedBelfry(Postgres postgres, Path home, Results results, String group) throws SQLException {
    this.results = results;
    this.group = group;
    // the writer spills under the server's data directory when the database falls behind
    System.setProperty("jboss.server.data.dir", home.resolve("data").toString());
    postgres.resetSchema();
    pool = postgres.pool("belfry-audit", 4);
    AuditSchema.migrate(pool);
    harness = new AuditWriterHarness(pool, "bench-compare");
    belfry =
        new BelfryContender(
            home, 1, true, ActivityAnnouncers.to(harness::observe, NODE), Storage.FILE_STORE);
  }

  @Override
  public void schedule(int via, String id, long dueMillis) {
    belfry.schedule(via, id, dueMillis);
  }

  @Override
  public void cancel(int via, String id) {
    belfry.cancel(via, id);
  }

  @Override
  public void scheduleAll(List<String> ids, long dueMillis) throws Exception {
    belfry.scheduleAll(ids, dueMillis);
  }

  @Override
  public void pause() {
    belfry.pause();
  }

  @Override
  public long storedBytes() throws Exception {
    return belfry.storedBytes();
  }

  @Override
  public long armed() {
    return belfry.armed();
  }

  /** Stops the node, waits for the audit to drain (bounded), and says what it wrote. */
  @Override
  public void close() {
    belfry.close();
    AuditWriter writer = harness.writer();
    boolean drained;
    try {
      drained = writer.awaitDrained(Duration.ofSeconds(120));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      drained = false;
    }
    results.note(
        "Belfry + audit, %s: %,d audit records written to PostgreSQL, %,d spilled to disk;"
            + " drained within 120 s after the last workload: %s.",
        group, writer.recordsWritten(), writer.recordsSpilled(), drained ? "yes" : "NO");
    harness.close();
    pool.close();
  }
}
