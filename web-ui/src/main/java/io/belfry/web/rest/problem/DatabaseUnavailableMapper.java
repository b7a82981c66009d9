package io.belfry.web.rest.problem;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.sql.SQLException;
import org.jboss.logging.Logger;

/**
 * {@code BelfryDS} failing under a request ({@code /users} reads and writes it directly) is the
 * database's outage, not Belfry's bug: {@code 503}, like {@code /audit} and the sinks, with the
 * cause in the log only.
 */
@Provider
public class DatabaseUnavailableMapper implements ExceptionMapper<SQLException> {

  private static final Logger LOG = Logger.getLogger(DatabaseUnavailableMapper.class);

  @Override
  public Response toResponse(SQLException e) {
    LOG.warnf("BELFRY-0503 BelfryDS failed under a request: %s", e.toString());
    return Problem.of(
            "service-unavailable",
            "Service Unavailable",
            Response.Status.SERVICE_UNAVAILABLE,
            "The database is not available; try again later")
        .toResponse();
  }
}
