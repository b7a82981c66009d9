package io.belfry.web.health;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code GET /belfry/api/v1/health}: whether this node can serve reminders. Public (no login), so
 * that load balancers and scripts can poll it. {@code UP} needs a replicated cache with a
 * persistent store and an answering database; anything else is {@code DOWN} with status 503.
 */
@Path("health")
@RequestScoped
public class HealthResource {

  @Inject NodeHealth node;

  @GET
  @Produces(MediaType.APPLICATION_JSON)
  public Response health() {
    HealthReport report = node.report();
    return Response.status(report.up() ? Response.Status.OK : Response.Status.SERVICE_UNAVAILABLE)
        .entity(report)
        .build();
  }
}
