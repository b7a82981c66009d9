package io.belfry.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** A query timeout ends with its statement, on H2 too, where it is the session's. */
class QueryTimeoutTest {

  @Test
  @SuppressWarnings("try") // the QueryTimeout resource is used by being closed
  void timeout_limitsTheSessionOnH2_andIsLiftedWhenTheStatementIsDone() throws SQLException {
    try (AuditTestDatabase database = new AuditTestDatabase("query-timeout");
        Connection connection = database.dataSource.getConnection()) {
      try (PreparedStatement select = connection.prepareStatement("SELECT 1");
          QueryTimeout limit = QueryTimeout.of(select, 2);
          Statement other = connection.createStatement()) {
        select.executeQuery().close();
        assertThat(other.getQueryTimeout()).as("H2: the session's timeout").isEqualTo(2);
      }
      try (Statement later = connection.createStatement()) {
        assertThat(later.getQueryTimeout()).as("the next borrower's statement").isZero();
      }
    }
  }
}
