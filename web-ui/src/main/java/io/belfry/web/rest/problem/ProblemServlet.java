package io.belfry.web.rest.problem;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The error page (web.xml) for what the container refuses before Jakarta REST sees the request:
 * {@code 401} without or with wrong credentials, {@code 403} for a role that may not, and the
 * container's own {@code 400}/{@code 404}/{@code 405}. Writes the same problem body as the API.
 */
@WebServlet("/problem")
public class ProblemServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    int status = code instanceof Integer value ? value : response.getStatus();
    Response.StatusType type = Response.Status.fromStatusCode(status);
    Problem problem =
        switch (status) {
          case 401 ->
              Problem.of(
                  "unauthorized",
                  "Authentication required",
                  Response.Status.UNAUTHORIZED,
                  "Log in with HTTP Basic as a Belfry user, or send an API token as Bearer");
          case 403 ->
              Problem.of(
                  "forbidden",
                  "Not allowed",
                  Response.Status.FORBIDDEN,
                  "Your roles do not allow this: reading needs belfry-viewer; changes and users need belfry-admin");
          default ->
              Problem.of(
                  "http-" + status,
                  type == null ? "Error" : type.getReasonPhrase(),
                  type == null ? Response.Status.BAD_REQUEST : type,
                  "The server refused the request (" + status + ")");
        };
    response.setStatus(status);
    response.setContentType(Problem.MEDIA_TYPE);
    response.setCharacterEncoding(StandardCharsets.UTF_8.name());
    response.getWriter().write(problem.toJson().toString());
  }
}
