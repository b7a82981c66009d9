package io.belfry.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

/**
 * The local PostgreSQL the peers run on: the harness's own schema {@value #SCHEMA} (dropped and
 * created again per system), connection pools into it, and what the database costs: the CPU time of
 * every {@code postgres} process on the box and the size of the peers' tables.
 */
final class Postgres {

  static final String SCHEMA = "bench_compare";

  private final String url;
  private final String user;

  Postgres(String url, String user) {
    this.url = url;
    this.user = user;
  }

  /** A JDBC URL whose connections start in the harness's schema. */
  String schemaUrl() {
    return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + SCHEMA;
  }

  String user() {
    return user;
  }

  /** A pool into the harness's schema, as an application instance would hold one. */
  HikariDataSource pool(String name, int size) {
    HikariConfig config = new HikariConfig();
    config.setPoolName(name);
    config.setJdbcUrl(schemaUrl());
    config.setUsername(user);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(Math.min(2, size));
    return new HikariDataSource(config);
  }

  /** Drops the harness's schema with everything in it and creates it empty. */
  void resetSchema() throws SQLException {
    execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE", "CREATE SCHEMA " + SCHEMA);
  }

  void dropSchema() throws SQLException {
    execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
  }

  void execute(String... statements) throws SQLException {
    try (Connection c = java.sql.DriverManager.getConnection(schemaUrl(), user, "");
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  /** Bytes of the harness's tables with their indexes and TOAST, after a VACUUM ANALYZE. */
  long schemaBytes() throws SQLException {
    try (Connection c = java.sql.DriverManager.getConnection(schemaUrl(), user, "");
        Statement s = c.createStatement()) {
      try (ResultSet tables =
          s.executeQuery(
              "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
                  + " JOIN pg_namespace n ON n.oid = c.relnamespace"
                  + " WHERE n.nspname = '"
                  + SCHEMA
                  + "' AND c.relkind = 'r'")) {
        tables.next();
        return tables.getLong(1);
      }
    }
  }

  String version() {
    try (Connection c = java.sql.DriverManager.getConnection(schemaUrl(), user, "");
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SHOW server_version")) {
      r.next();
      return r.getString(1);
    } catch (SQLException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  /**
   * CPU seconds used so far by every process named {@code postgres} on this machine (from {@code
   * /proc}; user + system). Backends that ended are not counted; other users of the same server
   * are, which the report says.
   */
  static double cpuSeconds() {
    double ticks = 0;
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) procs::iterator) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String stat = Files.readString(p.resolve("stat"));
          int open = stat.indexOf('(');
          int close = stat.lastIndexOf(')');
          if (!stat.substring(open + 1, close).equals("postgres")) {
            continue;
          }
          String[] f = stat.substring(close + 2).split(" ");
          // fields 14 and 15 of stat (utime, stime) are 11 and 12 after the command
          ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
          // the process ended while being read: its time is gone either way
        }
      }
    } catch (IOException e) {
      return Double.NaN;
    }
    return ticks / 100.0; // USER_HZ is 100 on Linux
  }
}
