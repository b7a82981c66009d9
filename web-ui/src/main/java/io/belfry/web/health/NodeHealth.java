package io.belfry.web.health;

import io.belfry.audit.AuditDatabase;
import io.belfry.reminders.placement.ClusterView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * Whether this node can serve reminders: a replicated cache with a persistent store and an
 * answering database. Read by {@code GET /belfry/api/v1/health} and by MicroProfile Health's
 * readiness check.
 */
@ApplicationScoped
public class NodeHealth {

  @Inject ClusterView cluster;

  @Inject AuditDatabase database;

  public HealthReport report() {
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
