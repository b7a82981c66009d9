package io.belfry.schema;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The machine's PostgreSQL for tests (127.0.0.1:5432, database {@code test}, trust authentication),
 * which each test uses through a schema of its own.
 */
public final class LocalPostgres {

  private LocalPostgres() {}

  /** A data source on {@code schema}, or on the default schema when it is null. */
  public static PGSimpleDataSource dataSource(String schema) {
    PGSimpleDataSource pg = new PGSimpleDataSource();
    pg.setURL("jdbc:postgresql://127.0.0.1:5432/test");
    pg.setUser("postgres");
    pg.setConnectTimeout(2);
    if (schema != null) {
      pg.setCurrentSchema(schema);
    }
    return pg;
  }

  /**
   * A new schema of its own for one test, dropped with everything in it on {@link
   * FreshSchema#close()}; the test is skipped when PostgreSQL is not running.
   */
  public static FreshSchema freshSchema(String prefix) throws SQLException {
    PGSimpleDataSource admin = dataSource(null);
    assumeTrue(reachable(admin), "PostgreSQL on 127.0.0.1:5432 (database test) is not running");
    String name = prefix + UUID.randomUUID().toString().replace('-', '_');
    execute(admin, "CREATE SCHEMA " + name);
    return new FreshSchema(admin, name);
  }

  /** A schema {@link #freshSchema} made. */
  public record FreshSchema(DataSource admin, String name) implements AutoCloseable {

    public PGSimpleDataSource dataSource() {
      return LocalPostgres.dataSource(name);
    }

    @Override
    public void close() throws SQLException {
      execute(admin, "DROP SCHEMA " + name + " CASCADE");
    }
  }

  public static boolean reachable(DataSource dataSource) {
    try (Connection ignored = dataSource.getConnection()) {
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  public static void execute(DataSource dataSource, String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
