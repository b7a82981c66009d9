package io.belfry.audit.bench;

import io.belfry.schema.LocalPostgres;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The databases of the audit benchmarks: the local PostgreSQL (127.0.0.1:5432, database {@code
 * test}, user {@code postgres}, trust authentication), one fresh schema per pass, and one open
 * connection standing in for the server's pool.
 */
final class BenchDatabases {

  private BenchDatabases() {}

  /** A connection whose current schema is {@code schema}, dropped and created anew. */
  static Connection freshPostgres(String schema) throws SQLException {
    try (Connection c = postgres(null);
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      s.execute("CREATE SCHEMA " + schema);
    }
    return postgres(schema);
  }

  /** A new connection whose current schema is {@code schema} (null: the default). */
  static Connection postgres(String schema) throws SQLException {
    return LocalPostgres.dataSource(schema).getConnection();
  }

  static void dropSchema(Connection c, String schema) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }

  static String serverVersion(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SHOW server_version")) {
      r.next();
      return r.getString(1).split(" ")[0];
    }
  }

  /**
   * One open connection handed out again and again, close() ignored: the writer is one thread, and
   * the server hands it a pooled connection, so neither opens a connection per batch.
   */
  static DataSource singleConnection(Connection connection) {
    Connection shared =
        (Connection)
            Proxy.newProxyInstance(
                BenchDatabases.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("close")) {
                    return null;
                  }
                  try {
                    return method.invoke(connection, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    return (DataSource)
        Proxy.newProxyInstance(
            BenchDatabases.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getConnection")) {
                return shared;
              }
              if (method.getName().equals("unwrap") || method.getName().equals("isWrapperFor")) {
                throw new SQLException("not a wrapper");
              }
              if (method.getName().equals("toString")) {
                return "single-connection data source";
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }
}
