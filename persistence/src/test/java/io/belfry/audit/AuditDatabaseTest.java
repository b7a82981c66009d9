package io.belfry.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.sql.Connection;
import java.sql.SQLException;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** AuditDatabase on a real H2 in-memory database, the engine BelfryDS uses by default. */
class AuditDatabaseTest {

  private static final String USER = "sa";
  private static final String PASSWORD = "right";

  private String url;
  private Connection keepOpen;

  @BeforeEach
  void createDatabase(TestInfo test) throws SQLException {
    // one database per test; the open connection keeps the in-memory database alive
    url = "jdbc:h2:mem:" + test.getTestMethod().orElseThrow().getName();
    keepOpen = dataSource(PASSWORD).getConnection();
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    keepOpen.close();
  }

  @Test
  void answers_databaseUp_returnsTrue() {
    assertThat(new AuditDatabase(dataSource(PASSWORD)).answers()).isTrue();
  }

  @Test
  void answers_connectionRefused_returnsFalse() {
    assertThat(new AuditDatabase(dataSource("wrong")).answers()).isFalse();
  }

  @Test
  void answers_databaseMissing_returnsFalse() {
    JdbcDataSource missing = new JdbcDataSource();
    missing.setURL(url + "-missing;IFEXISTS=TRUE");
    missing.setUser(USER);
    missing.setPassword(PASSWORD);

    assertThat(new AuditDatabase(missing).answers()).isFalse();
  }

  @Test
  void productName_h2_returnsH2() throws SQLException {
    assertThat(new AuditDatabase(dataSource(PASSWORD)).productName()).isEqualTo("H2");
  }

  @Test
  void productName_connectionRefused_throwsSqlException() {
    AuditDatabase database = new AuditDatabase(dataSource("wrong"));

    assertThatExceptionOfType(SQLException.class).isThrownBy(database::productName);
  }

  private JdbcDataSource dataSource(String password) {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL(url);
    dataSource.setUser(USER);
    dataSource.setPassword(password);
    return dataSource;
  }
}
