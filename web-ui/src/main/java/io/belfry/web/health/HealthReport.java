package io.belfry.web.health;

import jakarta.json.bind.annotation.JsonbTransient;
import java.util.List;

/** The JSON body of {@code GET /health}. */
public record HealthReport(
    String status,
    String node,
    List<String> members,
    CacheHealth cache,
    DatabaseHealth datasource,
    EngineHealth engine) {

  public static final String UP = "UP";
  public static final String DOWN = "DOWN";

  @JsonbTransient
  public boolean up() {
    return UP.equals(status);
  }

  /**
   * The reminders cache: its clustering mode (e.g. REPL_SYNC), whether it has a file store, whether
   * it serves on this node ({@code AVAILABLE}; {@code DEGRADED_MODE} in a minority partition), and
   * whether this node holds the whole replica ({@code stateReceived}: false while a node that
   * joined is still receiving it; it serves meanwhile).
   */
  public record CacheHealth(
      String name, String mode, boolean persistent, String availability, boolean stateReceived) {}

  /** The audit datasource and whether it answered a validation query. */
  public record DatabaseHealth(String name, boolean up) {}

  /**
   * This node's reminder engine: whether it is running and whether its recovery has read every
   * stored entry since it started. A recovering node is UP: it sets, reads and cancels, and fires
   * what it has found so far; {@code recovered} tells scripts when its store has been fully armed.
   */
  public record EngineHealth(boolean running, boolean recovered) {}
}
