package io.belfry.audit;

import static io.belfry.audit.AuditTestDatabase.activity;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.api.ReminderActivity.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/** The writer's batching, outage, spill and replay logic against a real H2 database. */
class AuditPipelineTest {

  private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");

  @TempDir Path dataDir;

  private AuditTestDatabase database;
  private SwitchableDataSource dataSource;
  private AuditSpill spill;

  @BeforeEach
  void createDatabase(TestInfo test) throws SQLException {
    database = new AuditTestDatabase(test.getTestMethod().orElseThrow().getName());
    dataSource = new SwitchableDataSource(database.dataSource);
    spill = new AuditSpill(dataDir.resolve("belfry/audit-spill/audit-spill.tsv"));
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    database.close();
  }

  private AuditPipeline pipeline(int capacity, int batchSize) {
    return new AuditPipeline(
        new AuditRows(dataSource), spill, Clock.fixed(NOW, ZoneOffset.UTC), capacity, batchSize);
  }

  private static void enqueue(AuditPipeline pipeline, int count) {
    for (int i = 0; i < count; i++) {
      pipeline.enqueue(activity(Type.FIRED, "k" + i, NOW.plusMillis(i)));
    }
  }

  @Test
  void writeOnce_1200Queued_writesBatchesOf500() throws SQLException {
    AuditPipeline pipeline = pipeline(10_000, 500);
    enqueue(pipeline, 1200);

    assertThat(pipeline.writeOnce()).isTrue();
    assertThat(database.count("TRUE")).isEqualTo(500);
    assertThat(pipeline.queueDepth()).isEqualTo(700);
    assertThat(pipeline.writeOnce()).isTrue();
    assertThat(pipeline.writeOnce()).isTrue();

    assertThat(database.count("TRUE")).isEqualTo(1200);
    assertThat(pipeline.queueDepth()).isZero();
    assertThat(pipeline.recordsWritten()).isEqualTo(1200);
    assertThat(database.count("type = 'FIRED' AND lateness_ms = 40")).isEqualTo(1200);
  }

  @Test
  void insert_sameRecordsTwice_writesEachOnce() throws SQLException {
    AuditRows rows = new AuditRows(dataSource);
    List<PendingAudit> records =
        List.of(
            new PendingAudit("n1:1", activity(Type.SET, "a", NOW), NOW),
            new PendingAudit("n1:2", activity(Type.CANCELLED, "a", NOW), NOW));

    assertThat(rows.insert(records)).isEqualTo(2);
    assertThat(rows.insert(records)).isZero();
    assertThat(database.count("TRUE")).isEqualTo(2);
    assertThat(database.count("type = 'SET' AND lateness_ms IS NULL")).isEqualTo(1);
  }

  @Test
  void writeOnce_databaseDown_keepsRecordsAndWritesThemWhenBack() throws SQLException {
    AuditPipeline pipeline = pipeline(10_000, 500);
    enqueue(pipeline, 10);
    dataSource.down();

    assertThat(pipeline.writeOnce()).isFalse();
    assertThat(pipeline.queueDepth()).isEqualTo(10);
    assertThat(pipeline.writeLag()).isEqualTo(Duration.ZERO); // fixed clock: queued "now"
    dataSource.up();
    assertThat(pipeline.writeOnce()).isTrue();

    assertThat(database.count("TRUE")).isEqualTo(10);
    assertThat(pipeline.queueDepth()).isZero();
    assertThat(spill.hasRecords()).isFalse();
  }

  @Test
  void writeOnce_databaseDownAndQueueOverCapacity_spillsThenReplaysFirst() throws Exception {
    AuditPipeline pipeline = pipeline(5, 2);
    enqueue(pipeline, 12);
    dataSource.down();

    assertThat(pipeline.writeOnce()).isFalse();
    assertThat(pipeline.queueDepth()).isZero();
    assertThat(Files.readAllLines(spill.file())).hasSize(12);
    assertThat(pipeline.recordsSpilled()).isEqualTo(12);
    pipeline.enqueue(activity(Type.SET, "after-outage", NOW));
    dataSource.up();
    assertThat(pipeline.writeOnce()).isTrue();

    assertThat(spill.hasRecords()).isFalse();
    assertThat(database.count("TRUE")).isEqualTo(13);
    assertThat(database.count("reminder_key = 'after-outage'")).isEqualTo(1);
    assertThat(pipeline.queueDepth()).isZero();
  }

  @Test
  void writeOnce_replayFailsHalfway_replaysAgainWithoutDuplicates() throws Exception {
    AuditPipeline pipeline = pipeline(3, 2);
    enqueue(pipeline, 6);
    dataSource.down();
    pipeline.writeOnce();
    // a replay that dies after its first batch: that batch is written, the file stays
    AuditRows rows = new AuditRows(dataSource);
    dataSource.up();
    int[] batches = {0};
    try {
      spill.replay(
          2,
          batch -> {
            if (batches[0]++ == 1) {
              throw new SQLException("dies mid-replay (test)");
            }
            rows.insert(batch);
          });
    } catch (SQLException expected) {
      // the spill file must survive the failure
    }
    assertThat(database.count("TRUE")).isEqualTo(2);

    assertThat(pipeline.writeOnce()).isTrue();

    assertThat(database.count("TRUE")).isEqualTo(6);
    assertThat(spill.hasRecords()).isFalse();
  }

  @Test
  void spill_survivesRestart_newPipelineReplaysIt() throws Exception {
    AuditPipeline before = pipeline(1, 1);
    enqueue(before, 3);
    dataSource.down();
    before.writeOnce();
    dataSource.up();

    AuditPipeline after = pipeline(1, 1);
    assertThat(after.hasSpilledRecords()).isTrue();
    assertThat(after.writeOnce()).isTrue();

    assertThat(database.count("TRUE")).isEqualTo(3);
  }

  @Test
  void run_recordsArrivingOneByOne_shareACommit() throws Exception {
    AtomicInteger commits = new AtomicInteger();
    AuditRows counting =
        new AuditRows(dataSource) {
          @Override
          public int insert(List<PendingAudit> batch) throws SQLException {
            commits.incrementAndGet();
            return super.insert(batch);
          }
        };
    AuditPipeline pipeline =
        new AuditPipeline(counting, spill, Clock.fixed(NOW, ZoneOffset.UTC), 10_000, 500);
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      thread.submit(pipeline::run);
      // twelve sets 4 ms apart, as a steady load of 250/s brings them: a commit each before,
      // since an in-memory insert takes less than that; about one now (two or three on a slow
      // box, where the sleeps stretch past the linger)
      for (int i = 0; i < 12; i++) {
        pipeline.enqueue(activity(Type.SET, "k" + i, NOW));
        Thread.sleep(4);
      }

      assertThat(pipeline.awaitDrained(Duration.ofSeconds(10))).isTrue();
      assertThat(database.count("TRUE")).isEqualTo(12);
      assertThat(commits.get()).as("transactions for 12 rows").isLessThanOrEqualTo(6);
    } finally {
      pipeline.stop();
      thread.shutdownNow();
    }
  }

  @Test
  void run_onItsThread_drainsAndStopFlushes() throws Exception {
    AuditPipeline pipeline = pipeline(10_000, 500);
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      thread.submit(pipeline::run);
      enqueue(pipeline, 750);

      assertThat(pipeline.awaitDrained(Duration.ofSeconds(10))).isTrue();
      assertThat(database.count("TRUE")).isEqualTo(750);

      dataSource.down();
      enqueue(pipeline, 3);
      pipeline.stop();
      thread.shutdown();
      assertThat(thread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      assertThat(Files.readAllLines(spill.file())).hasSize(3);
      assertThat(pipeline.queueDepth()).isZero();
    } finally {
      thread.shutdownNow();
    }
  }

  @Test
  void writeOnce_spillWithTornLine_replaysTheRestAndSetsTheLineAside() throws Exception {
    AuditPipeline before = pipeline(1, 1);
    enqueue(before, 2);
    dataSource.down();
    before.writeOnce();
    Files.writeString(spill.file(), "1\tcut-short-by-a-crash", StandardOpenOption.APPEND);
    AuditPipeline after = pipeline(1, 1);
    enqueue(after, 2); // spilled after the torn line, as after a restart
    after.writeOnce();
    dataSource.up();

    assertThat(after.writeOnce()).isTrue();

    assertThat(database.count("TRUE")).isEqualTo(4);
    assertThat(spill.hasRecords()).isFalse();
    assertThat(Files.readAllLines(Path.of(spill.file() + ".rejected")))
        .containsExactly("1\tcut-short-by-a-crash");
  }

  @Test
  void spillLine_awkwardText_roundTrips() {
    ReminderActivity awkward =
        new ReminderActivity(
            Type.DELIVERY_FAILED, "n\ts", "k\\ey\n", 3, 0, null, NOW, "-", "line1\nline2\tx\r");
    PendingAudit record = new PendingAudit("id-1", awkward, NOW);

    PendingAudit parsed = AuditSpill.parse(AuditSpill.line(record));

    assertThat(parsed).isEqualTo(record);
    assertThat(AuditSpill.line(record)).doesNotContain("\n");
  }
}
