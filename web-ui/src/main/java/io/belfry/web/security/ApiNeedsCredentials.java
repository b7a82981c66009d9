package io.belfry.web.security;

import io.belfry.web.rest.problem.Problem;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;
import java.io.IOException;

/**
 * The API takes credentials on every request (Basic or Bearer), never the console's session: a
 * request to {@code /api/*} that carries no {@code Authorization} header but is authenticated all
 * the same (the container restored the console's login from its session cookie) is refused with
 * {@code 401}. Otherwise a form or script on another site could make a logged-in admin's browser
 * change reminders (cross-site request forgery): {@code POST …/redelivery} has no body to stop it.
 * {@code /api/v1/health} is public and stays so.
 */
@WebFilter("/api/*")
public class ApiNeedsCredentials extends HttpFilter {

  private static final long serialVersionUID = 1L;

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    boolean sessionOnly =
        request.getHeader("Authorization") == null
            && request.getUserPrincipal() != null
            && !request.getRequestURI().endsWith("/api/v1/health");
    if (sessionOnly) {
      Problem problem =
          Problem.of(
              "unauthorized",
              "Authentication required",
              Response.Status.UNAUTHORIZED,
              "The API needs credentials on every request (HTTP Basic or an API token as Bearer);"
                  + " the console's session is not accepted");
      response.setStatus(401);
      response.setContentType("application/problem+json");
      response.getWriter().write(problem.toJson().toString());
      return;
    }
    chain.doFilter(request, response);
  }
}
