package io.belfry.web.rest.problem;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Locale;

/**
 * What Jakarta REST itself refuses (unknown path {@code 404}, method {@code 405}, media types
 * {@code 415}/{@code 406}, …) and what resources throw as {@link WebApplicationException}: the same
 * status and headers (such as {@code Allow}), with a problem body instead of the container's page.
 */
@Provider
public class HttpErrorMapper implements ExceptionMapper<WebApplicationException> {

  @Context UriInfo uri;

  @Context Request request;

  @Override
  public Response toResponse(WebApplicationException e) {
    Response original = e.getResponse();
    Response.StatusType status = original.getStatusInfo();
    Problem problem =
        Problem.of(
            status.getReasonPhrase().toLowerCase(Locale.ROOT).replace(' ', '-'),
            status.getReasonPhrase(),
            status,
            detail(status.getStatusCode(), e));
    return Response.fromResponse(original)
        .type(Problem.MEDIA_TYPE)
        .entity(problem.toJson().toString())
        .build();
  }

  private String detail(int status, WebApplicationException e) {
    String path = "/" + uri.getPath().replaceFirst("^/", "");
    return switch (status) {
      case 404 -> "Nothing at " + path;
      case 405 -> request.getMethod() + " is not allowed on " + path;
      case 406 -> "Responses are application/json (errors application/problem+json)";
      case 415 -> "Send the body as application/json";
      default ->
          e.getMessage() == null || e.getMessage().startsWith("RESTEASY")
              ? status + " " + e.getResponse().getStatusInfo().getReasonPhrase()
              : e.getMessage();
    };
  }
}
