package io.belfry.web.health;

import io.belfry.audit.AuditDatabase;
import io.belfry.reminders.placement.ClusterView;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * {@code GET /belfry/api/v1/health}: whether this node can serve reminders. Public (no login), so
 * that load balancers and scripts can poll it. {@code UP} needs a replicated cache with a
 * persistent store and an answering database; anything else is {@code DOWN} with status 503.
 */
@Path("health")
@RequestScoped
public class HealthResource {

  @Inject ClusterView cluster;

  @Inject AuditDatabase database;

  @GET
  @Produces(MediaType.APPLICATION_JSON)
  public Response health() {
    HealthReport report = report();
    return Response.status(report.up() ? Response.Status.OK : Response.Status.SERVICE_UNAVAILABLE)
        .entity(report)
        .build();
  }

  private HealthReport report() {
    String mode;
    boolean persistent;
    List<String> members;
    try {
      mode = cluster.cacheMode();
      persistent = cluster.persistent();
      members = cluster.members();
    } catch (RuntimeException e) {
      mode = "UNAVAILABLE";
      persistent = false;
      members = List.of();
    }
    boolean databaseUp = database.answers();
    boolean up = mode.startsWith("REPL") && persistent && databaseUp;
    return new HealthReport(
        up ? HealthReport.UP : HealthReport.DOWN,
        cluster.nodeName(),
        members,
        new HealthReport.CacheHealth("reminders", mode, persistent),
        new HealthReport.DatabaseHealth("BelfryDS", databaseUp));
  }
}
