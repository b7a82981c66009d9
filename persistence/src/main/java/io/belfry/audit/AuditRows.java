package io.belfry.audit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import javax.sql.DataSource;

/**
 * Writes audit records with plain JDBC batches, the fastest path on both H2 and PostgreSQL. Each
 * insert is guarded by {@code NOT EXISTS} on {@code activity_id}, so writing a batch again after a
 * failure, or replaying a spill file twice, never duplicates a record. The one writer per node is
 * the only one inserting that node's activity ids, so the guard cannot race; the unique constraint
 * backs it regardless.
 */
public class AuditRows {

  static final String INSERT =
      "INSERT INTO belfry_audit (activity_id, type, namespace, reminder_key, version, occurrence,"
          + " due_at, event_at, lateness_ms, node, detail, principal)"
          + " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
          + " WHERE NOT EXISTS (SELECT 1 FROM belfry_audit WHERE activity_id = ?)";

  /** The column holds at most this many characters; longer details are cut. */
  static final int MAX_DETAIL_LENGTH = 4000;

  private final DataSource dataSource;

  public AuditRows(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * Inserts the records in one transaction; all or none.
   *
   * @return how many were new (the others were already written)
   */
  public int insert(List<PendingAudit> records) throws SQLException {
    if (records.isEmpty()) {
      return 0;
    }
    try (Connection connection = dataSource.getConnection()) {
      boolean autoCommit = connection.getAutoCommit();
      connection.setAutoCommit(false);
      try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
        for (PendingAudit record : records) {
          bind(insert, record);
          insert.addBatch();
        }
        int inserted = 0;
        for (int count : insert.executeBatch()) {
          // SUCCESS_NO_INFO (-2) means the driver does not say; count it as written
          inserted += count == PreparedStatement.SUCCESS_NO_INFO ? 1 : count;
        }
        connection.commit();
        return inserted;
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setAutoCommit(autoCommit);
      }
    }
  }

  private static void bind(PreparedStatement insert, PendingAudit record) throws SQLException {
    var activity = record.activity();
    insert.setString(1, record.activityId());
    insert.setString(2, activity.type().name());
    insert.setString(3, activity.namespace());
    insert.setString(4, activity.key());
    insert.setLong(5, activity.version());
    insert.setLong(6, activity.occurrence());
    if (activity.dueAt() == null) {
      insert.setNull(7, Types.TIMESTAMP_WITH_TIMEZONE);
    } else {
      insert.setObject(7, OffsetDateTime.ofInstant(activity.dueAt(), ZoneOffset.UTC));
    }
    insert.setObject(8, OffsetDateTime.ofInstant(activity.at(), ZoneOffset.UTC));
    Long lateness = record.latenessMillis();
    if (lateness == null) {
      insert.setNull(9, Types.BIGINT);
    } else {
      insert.setLong(9, lateness);
    }
    insert.setString(10, activity.node());
    String detail = activity.detail();
    insert.setString(
        11,
        detail == null || detail.length() <= MAX_DETAIL_LENGTH
            ? detail
            : detail.substring(0, MAX_DETAIL_LENGTH));
    insert.setString(12, activity.principal());
    insert.setString(13, record.activityId());
  }
}
