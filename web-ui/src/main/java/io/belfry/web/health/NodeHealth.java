package io.belfry.web.health;

import io.belfry.audit.AuditDatabase;
import io.belfry.reminders.cdi.EngineRuntime;
import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.placement.ClusterView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * Whether this node can serve reminders: a replicated cache with a persistent store, available here
 * (not in a minority partition), and an answering database. Read by {@code GET
 * /belfry/api/v1/health} and by MicroProfile Health's readiness check.
 */
@ApplicationScoped
public class NodeHealth {

  private static final String AVAILABLE = "AVAILABLE";
  private static final String UNAVAILABLE = "UNAVAILABLE";

  @Inject ClusterView cluster;

  @Inject AuditDatabase database;

  @Inject EngineRuntime engineRuntime;

  public HealthReport report() {
    String mode;
    boolean persistent;
    String availability;
    List<String> members;
    boolean stateReceived;
    try {
      mode = cluster.cacheMode();
      persistent = cluster.persistent();
      availability = cluster.availability();
      members = cluster.members();
      stateReceived = cluster.stateReceived();
    } catch (RuntimeException e) {
      mode = UNAVAILABLE;
      persistent = false;
      availability = UNAVAILABLE;
      members = List.of();
      stateReceived = false;
    }
    boolean databaseUp = database.answers();
    ReminderEngine engine = engineRuntime.engine();
    // a minority node is DOWN, so a load balancer sends clients to the majority
    boolean up =
        mode.startsWith("REPL") && persistent && AVAILABLE.equals(availability) && databaseUp;
    return new HealthReport(
        up ? HealthReport.UP : HealthReport.DOWN,
        cluster.nodeName(),
        members,
        new HealthReport.CacheHealth("reminders", mode, persistent, availability, stateReceived),
        new HealthReport.DatabaseHealth("BelfryDS", databaseUp),
        new HealthReport.EngineHealth(engine != null, engine != null && engine.recovered()));
  }
}
