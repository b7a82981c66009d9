package io.belfry.audit;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/** A datasource that can be taken down and brought back, to stand for a database outage. */
final class SwitchableDataSource implements DataSource {

  private final DataSource target;
  private volatile boolean down;

  SwitchableDataSource(DataSource target) {
    this.target = target;
  }

  void down() {
    down = true;
  }

  void up() {
    down = false;
  }

  @Override
  public Connection getConnection() throws SQLException {
    if (down) {
      throw new SQLTransientConnectionException("database down (test)");
    }
    return target.getConnection();
  }

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    return getConnection();
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {}

  @Override
  public void setLoginTimeout(int seconds) {}

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    throw new SQLException("not a wrapper");
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return false;
  }
}
