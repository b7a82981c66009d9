package io.belfry.web.rest.problem;

import io.belfry.reminders.api.RemindersUnavailableException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * This node cannot serve the reminder now (it is cut off from the majority, or members are
 * changing): {@code 503} with {@code Retry-After}, so a client retries, ideally on another node.
 */
@Provider
public class UnavailableMapper implements ExceptionMapper<RemindersUnavailableException> {

  /** A view change settles in about a second; a partition lasts until healed. */
  static final String RETRY_AFTER_SECONDS = "1";

  @Override
  public Response toResponse(RemindersUnavailableException e) {
    Response problem =
        Problem.of(
                "cluster-unavailable",
                "The cluster cannot serve this now",
                Response.Status.SERVICE_UNAVAILABLE,
                e.getMessage())
            .toResponse();
    return Response.fromResponse(problem)
        .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)
        .build();
  }
}
