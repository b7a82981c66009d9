package io.belfry.web.rest.problem;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Anything else is Belfry's fault, never the client's: {@code 500} with a problem body that names
 * an incident id and nothing of the internals; the log has the stack trace under that id.
 */
@Provider
public class UnexpectedFailureMapper implements ExceptionMapper<Throwable> {

  private static final Logger LOG = Logger.getLogger(UnexpectedFailureMapper.class);

  @Override
  public Response toResponse(Throwable e) {
    String incident = UUID.randomUUID().toString();
    LOG.errorf(e, "BELFRY-0500 Request failed unexpectedly (incident %s)", incident);
    return Problem.of(
            "internal-error",
            "Internal error",
            Response.Status.INTERNAL_SERVER_ERROR,
            "incident " + incident)
        .toResponse();
  }
}
