package io.belfry.audit;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** The audit database, {@code BelfryDS}, as the server-config scripts define it. */
@ApplicationScoped
public class AuditDatabase {

  /** JNDI name of Belfry's datasource (H2 file database by default, PostgreSQL by switch). */
  public static final String DATASOURCE = "java:jboss/datasources/BelfryDS";

  private static final int VALIDATION_TIMEOUT_SECONDS = 2;

  @Resource(lookup = DATASOURCE)
  private DataSource dataSource;

  /** For CDI, which injects {@code BelfryDS}. */
  public AuditDatabase() {}

  /** On a given datasource, outside the container (unit tests). */
  AuditDatabase(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Whether the database hands out a connection that answers within two seconds. */
  public boolean answers() {
    try (Connection connection = dataSource.getConnection()) {
      return connection.isValid(VALIDATION_TIMEOUT_SECONDS);
    } catch (SQLException e) {
      return false;
    }
  }

  /** The product name the driver reports, e.g. {@code H2} or {@code PostgreSQL}. */
  public String productName() throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      return connection.getMetaData().getDatabaseProductName();
    }
  }
}
