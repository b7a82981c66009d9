package io.belfry.web.security;

import io.belfry.web.health.HealthResource;
import io.belfry.web.rest.ClusterResource;
import io.belfry.web.rest.OpenApiDocumentResource;
import io.belfry.web.rest.problem.DatabaseUnavailableMapper;
import io.belfry.web.rest.problem.Problem;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.sql.SQLException;
import java.util.Set;
import java.util.TreeSet;

/**
 * An API token bound to namespaces reaches only those: a request that names another namespace (in
 * its path, {@code /reminders/{namespace}/…} and {@code /namespaces/{namespace}/sink}, or as {@code
 * ?namespace=} of a listing) or names none where a listing would span every namespace is a {@code
 * 403}; {@code /users} and {@code /tokens} are refused outright, since managing them would let the
 * token step outside its namespaces. {@code /cluster} (counts only), {@code /health} and {@code
 * /openapi} stay open to it. Roles are checked first, by web.xml; this narrows what the roles
 * allow.
 *
 * <p>A JAX-RS filter, after matching, because it needs the matched resource and its path
 * parameters; the realm cannot decide it, since it does not know what a request addresses.
 */
@Provider
public class TokenNamespaceScope implements ContainerRequestFilter {

  private static final String BEARER = "Bearer ";

  @Inject TokenDirectory tokens;

  @Context ResourceInfo resource;

  @Override
  public void filter(ContainerRequestContext request) {
    String authorization = request.getHeaderString(HttpHeaders.AUTHORIZATION);
    if (authorization == null
        || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return;
    }
    Set<String> bound;
    try {
      bound = tokens.namespacesOf(authorization.substring(BEARER.length()).trim());
    } catch (SQLException e) {
      request.abortWith(new DatabaseUnavailableMapper().toResponse(e));
      return;
    }
    if (bound.isEmpty()) {
      return;
    }
    Class<?> target = resource.getResourceClass();
    if (target == UserResource.class || target == TokenResource.class) {
      refuse(request, "A token bound to namespaces cannot manage users or tokens");
      return;
    }
    if (target == null || !addressesNamespaces(target)) {
      return;
    }
    String namespace = request.getUriInfo().getPathParameters().getFirst("namespace");
    if (namespace == null) {
      namespace = request.getUriInfo().getQueryParameters().getFirst("namespace");
    }
    if (namespace == null) {
      refuse(
          request,
          "This token may reach only the namespaces "
              + new TreeSet<>(bound)
              + ": name one with ?namespace=");
    } else if (!bound.contains(namespace)) {
      refuse(request, "This token may not reach namespace " + namespace);
    }
  }

  /**
   * Everything but the cluster's view, health and the API's description addresses reminders of some
   * namespace.
   */
  private static boolean addressesNamespaces(Class<?> target) {
    return target != ClusterResource.class
        && target != HealthResource.class
        && target != OpenApiDocumentResource.class;
  }

  private static void refuse(ContainerRequestContext request, String detail) {
    request.abortWith(
        Problem.of("namespace-forbidden", "Forbidden", Response.Status.FORBIDDEN, detail)
            .toResponse());
  }
}
