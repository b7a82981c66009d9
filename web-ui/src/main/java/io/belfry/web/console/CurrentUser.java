package io.belfry.web.console;

import com.vaadin.flow.server.VaadinServletRequest;
import io.belfry.web.security.Roles;
import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;

/**
 * Who is using the console, read from the servlet request that the container authenticated
 * (Elytron, realm {@code belfry-realm}). Call on a request thread: in a view's constructor or an
 * event listener, not from a background task.
 */
public final class CurrentUser {

  private CurrentUser() {}

  public static boolean isLoggedIn() {
    return name() != null;
  }

  /** The user's name, or {@code null} when not logged in. */
  public static String name() {
    HttpServletRequest request = request();
    Principal principal = request == null ? null : request.getUserPrincipal();
    return principal == null ? null : principal.getName();
  }

  /** Whether the user may change anything (role {@link Roles#ADMIN}). */
  public static boolean isAdmin() {
    HttpServletRequest request = request();
    return request != null && request.isUserInRole(Roles.ADMIN);
  }

  /** Whether the user may look (role {@link Roles#VIEWER} or {@link Roles#ADMIN}). */
  public static boolean mayView() {
    HttpServletRequest request = request();
    return request != null
        && (request.isUserInRole(Roles.VIEWER) || request.isUserInRole(Roles.ADMIN));
  }

  /**
   * Refuses a change unless the user is an admin. Views hide editing controls from viewers; this
   * check is what the server enforces even if a control were reached anyway.
   */
  public static void requireAdmin() {
    if (!isAdmin()) {
      throw new SecurityException("changes need the role " + Roles.ADMIN);
    }
  }

  static HttpServletRequest request() {
    VaadinServletRequest current = VaadinServletRequest.getCurrent();
    return current == null ? null : current.getHttpServletRequest();
  }
}
