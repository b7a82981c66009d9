package io.belfry.audit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import javax.sql.DataSource;

/**
 * Deletes audit records older than a horizon in small transactions, so that a purge of millions of
 * rows never holds long locks or a huge undo log, and the writer keeps writing in between.
 */
public class AuditPurge {

  public static final int DEFAULT_BATCH_SIZE = 1_000;

  // FETCH FIRST in a subquery: the portable spelling of "DELETE ... LIMIT" (H2 and PostgreSQL)
  static final String DELETE_OLDEST =
      "DELETE FROM belfry_audit WHERE id IN (SELECT id FROM belfry_audit WHERE event_at < ?"
          + " ORDER BY event_at FETCH FIRST %d ROWS ONLY)";

  private final DataSource dataSource;
  private final int batchSize;

  public AuditPurge(DataSource dataSource, int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be positive, got " + batchSize);
    }
    this.dataSource = dataSource;
    this.batchSize = batchSize;
  }

  /** Deletes every record whose event time is before {@code horizon}; returns how many. */
  public long purgeOlderThan(Instant horizon) throws SQLException {
    String sql = String.format(DELETE_OLDEST, batchSize);
    long purged = 0;
    try (Connection connection = dataSource.getConnection()) {
      // one statement per transaction: autocommit on, whatever the pool's default
      connection.setAutoCommit(true);
      try (PreparedStatement delete = connection.prepareStatement(sql)) {
        delete.setObject(1, OffsetDateTime.ofInstant(horizon, ZoneOffset.UTC));
        int deleted;
        do {
          deleted = delete.executeUpdate();
          purged += deleted;
        } while (deleted == batchSize);
      }
    }
    return purged;
  }
}
