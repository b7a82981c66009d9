package io.belfry.web.security;

import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.security.Principal;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * A console login lives in the session, with the roles the user had when logging in. On every
 * console request this filter compares them with the user's roles as stored now, and ends the
 * session when the user was removed or their roles changed: a removed or demoted user loses the
 * console at once, on every node, and logs in again to get the new roles. The API is not concerned:
 * it authenticates every request afresh ({@link ApiNeedsCredentials}).
 */
@WebFilter("/*")
public class ConsoleSessionCheck extends HttpFilter {

  private static final long serialVersionUID = 1L;

  private static final Logger LOG = Logger.getLogger(ConsoleSessionCheck.class);

  @Inject UserDirectory users;

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    HttpSession session = request.getSession(false);
    Principal principal = request.getUserPrincipal();
    if (session != null
        && principal != null
        && request.getHeader("Authorization") == null
        && !request.getRequestURI().startsWith(request.getContextPath() + "/api/")
        && !rolesStillHeld(request, principal.getName())) {
      LOG.infof(
          "BELFRY-0612 Ended the console session of %s: the user was removed or their roles"
              + " changed",
          principal.getName());
      request.logout();
      session.invalidate();
    }
    chain.doFilter(request, response);
  }

  private boolean rolesStillHeld(HttpServletRequest request, String name) {
    Optional<Set<String>> stored;
    try {
      stored = users.roles(name);
    } catch (SQLException e) {
      // the database is down: keep the session; the API's and the audit's own errors say so
      return true;
    }
    if (stored.isEmpty()) {
      return false;
    }
    for (String role : Roles.ALL) {
      if (request.isUserInRole(role) != stored.get().contains(role)) {
        return false;
      }
    }
    return true;
  }
}
