package io.belfry.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Serializes schema migrations across every node that shares one database: a row of {@value #TABLE}
 * is locked ({@code SELECT … FOR UPDATE}) by one connection while that node migrates, and the other
 * nodes wait for it.
 *
 * <p>Why not rely on Flyway's own lock: Flyway locks its history table, which must exist first. Two
 * fresh nodes both found it missing, both created and baselined it, and the loser failed every
 * later migration ("Unable to baseline schema history table … as it already exists, and is empty").
 * A plain row lock works the same on H2 and PostgreSQL and needs nothing but SQL.
 */
public final class MigrationLock {

  /** The one-row table whose row is the lock. */
  public static final String TABLE = "belfry_migration_lock";

  /** Work done while holding the lock. */
  @FunctionalInterface
  public interface Work {
    void run() throws SQLException;
  }

  private MigrationLock() {}

  /**
   * Runs {@code work} while this node holds the lock; waits for another node that holds it. The
   * lock table is created on first use; a race to create it fails one side with an {@link
   * SQLException}, and that side retries (see {@link SchemaStartup}).
   */
  public static void holding(DataSource dataSource, Work work) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      createIfMissing(connection);
      connection.setAutoCommit(false);
      try (Statement lock = connection.createStatement()) {
        lock.executeQuery("SELECT id FROM " + TABLE + " WHERE id = 1 FOR UPDATE").close();
        work.run();
      } finally {
        // the lock is released by ending the transaction, which changed nothing
        connection.rollback();
        connection.setAutoCommit(true);
      }
    }
  }

  private static void createIfMissing(Connection connection) throws SQLException {
    try (Statement ddl = connection.createStatement()) {
      ddl.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (id INT PRIMARY KEY)");
    }
    try (Statement insert = connection.createStatement()) {
      insert.executeUpdate("INSERT INTO " + TABLE + " (id) VALUES (1)");
    } catch (SQLException e) {
      if (e.getSQLState() == null || !e.getSQLState().startsWith("23")) {
        throw e;
      }
      // the row is there already: another node, or an earlier start, inserted it
    }
  }
}
