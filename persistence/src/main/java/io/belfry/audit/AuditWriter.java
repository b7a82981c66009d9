package io.belfry.audit;

import io.belfry.reminders.api.ExpiredTombstones;
import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.archive.ActivityArchive;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Archives every {@link ReminderActivity} of this node: the observer only queues (the engine calls
 * it on its own threads), and one writer thread of the container's managed thread factory writes. A
 * dedicated thread rather than a task on Belfry's delivery executor, because the writer runs for
 * the deployment's whole life and would permanently take one of that pool's few threads.
 *
 * <p>Overflow goes to {@code ${jboss.server.data.dir}/belfry/audit-spill/<module>.tsv}, one file
 * per deployment, replayed first when the database answers again (also after a restart).
 */
@ApplicationScoped
public class AuditWriter implements ActivityArchive {

  private static final Logger LOG = Logger.getLogger(AuditWriter.class);

  /** How long an undeploy waits for the writer to flush or spill what is queued. */
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  @Resource(lookup = AuditDatabase.DATASOURCE)
  DataSource dataSource;

  @Resource ManagedThreadFactory threadFactory;

  @Resource(lookup = "java:module/ModuleName")
  String moduleName;

  private AuditPipeline pipeline;
  private Thread writer;

  @PostConstruct
  void start() {
    pipeline =
        new AuditPipeline(
            new AuditRows(dataSource),
            new AuditSpill(spillFile(moduleName)),
            Clock.systemUTC(),
            AuditPipeline.DEFAULT_CAPACITY,
            AuditPipeline.DEFAULT_BATCH_SIZE);
    writer = threadFactory.newThread(pipeline::run);
    writer.setName("belfry-audit-writer");
    writer.start();
  }

  @PreDestroy
  void stop() {
    pipeline.stop();
    try {
      writer.join(STOP_TIMEOUT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (writer.isAlive()) {
      LOG.warnf("BELFRY-0407 The audit writer did not stop within %s", STOP_TIMEOUT);
    }
  }

  void onActivity(@Observes ReminderActivity activity) {
    record(activity);
  }

  /**
   * Archives tombstones before the engine removes them: synchronously, on the engine's purge
   * thread, and throwing if the database does not take them, so that the engine keeps them.
   */
  void onExpiredTombstones(@Observes ExpiredTombstones expired) throws SQLException {
    archiveNow(expired.tombstones());
  }

  @Override
  public void record(ReminderActivity activity) {
    pipeline.enqueue(activity);
  }

  @Override
  public void archiveNow(List<ReminderActivity> tombstones) throws SQLException {
    pipeline.writeNow(tombstones);
  }

  static Path spillFile(String moduleName) {
    String dataDir =
        System.getProperty("jboss.server.data.dir", System.getProperty("java.io.tmpdir"));
    return Path.of(dataDir, "belfry", "audit-spill", moduleName + ".tsv");
  }

  /** Records waiting in memory. */
  public int queueDepth() {
    return pipeline.queueDepth();
  }

  /** How long the oldest record in memory has waited. */
  public Duration writeLag() {
    return pipeline.writeLag();
  }

  public long recordsWritten() {
    return pipeline.recordsWritten();
  }

  public long recordsSpilled() {
    return pipeline.recordsSpilled();
  }

  public boolean hasSpilledRecords() {
    return pipeline.hasSpilledRecords();
  }

  /** Waits until more than {@code count} records have been written; false on timeout. */
  public boolean awaitWrittenMoreThan(long count, Duration timeout) throws InterruptedException {
    return pipeline.awaitWrittenMoreThan(count, timeout);
  }

  /** Waits until everything queued before the call is in the database; false on timeout. */
  public boolean awaitDrained(Duration timeout) throws InterruptedException {
    return pipeline.awaitDrained(timeout);
  }
}
