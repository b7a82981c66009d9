package io.belfry.web.foundation;

import io.belfry.audit.AuditDatabase;
import io.belfry.reminders.config.RemindersCache;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.infinispan.Cache;

/**
 * Test-only endpoints (added to the deployment by {@link CacheAndDatabaseRestartIT}): write and
 * read a value in the reminders cache and a row in BelfryDS, so a test can restart the server in
 * between.
 */
@Path("test-probe")
@RequestScoped
public class PersistenceProbe {

  @Inject @RemindersCache Cache<String, String> reminders;

  @Resource(lookup = AuditDatabase.DATASOURCE)
  DataSource belfryDs;

  @PUT
  @Path("cache/{key}")
  public void putCache(@PathParam("key") String key, String value) {
    reminders.put(key, value);
  }

  @GET
  @Path("cache/{key}")
  public Response getCache(@PathParam("key") String key) {
    String value = reminders.get(key);
    return value == null ? Response.status(404).build() : Response.ok(value).build();
  }

  @PUT
  @Path("sql/{key}")
  public void putRow(@PathParam("key") String key, String value) throws SQLException {
    try (Connection connection = belfryDs.getConnection()) {
      try (Statement ddl = connection.createStatement()) {
        ddl.execute(
            "CREATE TABLE IF NOT EXISTS it_restart_probe (k VARCHAR(64) PRIMARY KEY, v VARCHAR(255))");
      }
      try (PreparedStatement insert =
          connection.prepareStatement("INSERT INTO it_restart_probe (k, v) VALUES (?, ?)")) {
        insert.setString(1, key);
        insert.setString(2, value);
        insert.executeUpdate();
      }
    }
  }

  @GET
  @Path("sql/{key}")
  public Response getRow(@PathParam("key") String key) throws SQLException {
    try (Connection connection = belfryDs.getConnection();
        PreparedStatement select =
            connection.prepareStatement("SELECT v FROM it_restart_probe WHERE k = ?")) {
      select.setString(1, key);
      try (ResultSet rs = select.executeQuery()) {
        return rs.next() ? Response.ok(rs.getString(1)).build() : Response.status(404).build();
      }
    }
  }
}
