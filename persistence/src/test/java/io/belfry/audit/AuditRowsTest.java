package io.belfry.audit;

import static io.belfry.audit.AuditTestDatabase.activity;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.api.ReminderActivity.Type;
import io.belfry.schema.LocalPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Plain inserts first, the guarded ones only after the unique constraint refused a row: on both
 * databases the audit runs on, since each reports the refusal its own way (PostgreSQL as a batch
 * exception whose cause carries the SQLSTATE).
 */
class AuditRowsTest {

  private static final Instant AT = Instant.parse("2026-12-07T10:00:00Z");

  private final List<AutoCloseable> cleanups = new ArrayList<>();

  @AfterEach
  void cleanUp() throws Exception {
    for (AutoCloseable cleanup : cleanups) {
      cleanup.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"h2", "postgresql"})
  void insert_batchPartlyWrittenBefore_addsOnlyTheNewRows(String database) throws Exception {
    DataSource dataSource = migrated(database);
    AuditRows rows = new AuditRows(dataSource);
    List<PendingAudit> batch = records(5);

    assertThat(rows.insert(batch.subList(0, 2))).isEqualTo(2);
    assertThat(rows.insert(batch)).isEqualTo(3);
    assertThat(rows.insert(batch)).isZero();

    assertThat(count(dataSource, "TRUE")).isEqualTo(5);
    for (PendingAudit record : batch) {
      assertThat(count(dataSource, "activity_id = '" + record.activityId() + "'")).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"h2", "postgresql"})
  void insert_rowRefusedForAnotherReason_throwsAndWritesNothing(String database) throws Exception {
    DataSource dataSource = migrated(database);
    List<PendingAudit> batch = new ArrayList<>(records(3));
    // longer than the namespace column: refused, and not as a duplicate
    ReminderActivity tooLong =
        new ReminderActivity(Type.SET, "n".repeat(300), "k", 7, 1, AT, AT, "node1", null);
    batch.add(PendingAudit.of(tooLong, AT));

    assertThatThrownBy(() -> new AuditRows(dataSource).insert(batch))
        .isInstanceOf(SQLException.class);

    assertThat(count(dataSource, "TRUE")).isZero();
  }

  private DataSource migrated(String database) throws SQLException {
    if (database.equals("h2")) {
      AuditTestDatabase h2 = new AuditTestDatabase("audit-rows-" + UUID.randomUUID());
      cleanups.add(h2);
      return h2.dataSource;
    }
    LocalPostgres.FreshSchema schema = LocalPostgres.freshSchema("belfry_audit_rows_");
    cleanups.add(schema);
    DataSource pg = schema.dataSource();
    AuditSchema.migrate(pg);
    return pg;
  }

  private static List<PendingAudit> records(int count) {
    List<PendingAudit> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      records.add(PendingAudit.of(activity(Type.SET, "k-" + i, AT.plusMillis(i)), AT));
    }
    return records;
  }

  private static long count(DataSource dataSource, String where) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM belfry_audit WHERE " + where)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
