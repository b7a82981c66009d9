package io.belfry.audit;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * A query timeout for one statement, lifted again when the statement is done: {@code try
 * (PreparedStatement select = ...; QueryTimeout limit = QueryTimeout.of(select, 2))}.
 *
 * <p>Why lift it: H2's {@link Statement#setQueryTimeout} sets the session's {@code QUERY_TIMEOUT},
 * not the statement's, so on a pooled connection it would go on limiting every later statement of
 * whoever borrows the connection next (the audit writer's inserts included). On PostgreSQL the
 * timeout is the statement's own, and lifting it costs nothing.
 */
public final class QueryTimeout implements AutoCloseable {

  private final Statement statement;

  private QueryTimeout(Statement statement) {
    this.statement = statement;
  }

  /** Limits {@code statement} to {@code seconds} until {@link #close()}. */
  public static QueryTimeout of(Statement statement, int seconds) throws SQLException {
    statement.setQueryTimeout(seconds);
    return new QueryTimeout(statement);
  }

  @Override
  public void close() throws SQLException {
    statement.setQueryTimeout(0);
  }
}
