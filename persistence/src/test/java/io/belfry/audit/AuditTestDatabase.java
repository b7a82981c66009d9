package io.belfry.audit;

import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.api.ReminderActivity.Type;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import org.h2.jdbcx.JdbcDataSource;

/** A migrated H2 in-memory database for one test, kept alive by an open connection. */
final class AuditTestDatabase implements AutoCloseable {

  final JdbcDataSource dataSource = new JdbcDataSource();
  private final Connection keepOpen;

  AuditTestDatabase(String name) throws SQLException {
    dataSource.setURL("jdbc:h2:mem:" + name);
    dataSource.setUser("sa");
    dataSource.setPassword("");
    keepOpen = dataSource.getConnection();
    AuditSchema.migrate(dataSource);
  }

  long count(String where) throws SQLException {
    try (Statement statement = keepOpen.createStatement();
        ResultSet rows =
            statement.executeQuery("SELECT COUNT(*) FROM belfry_audit WHERE " + where)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  static ReminderActivity activity(Type type, String key, Instant at) {
    return new ReminderActivity(type, "ns", key, 7, 1, at.minusMillis(40), at, "node1", null);
  }

  @Override
  public void close() throws SQLException {
    keepOpen.close();
  }
}
