package io.belfry.web.health;

import jakarta.json.bind.annotation.JsonbTransient;
import java.util.List;

/** The JSON body of {@code GET /health}. */
public record HealthReport(
    String status,
    String node,
    List<String> members,
    CacheHealth cache,
    DatabaseHealth datasource) {

  public static final String UP = "UP";
  public static final String DOWN = "DOWN";

  @JsonbTransient
  public boolean up() {
    return UP.equals(status);
  }

  /** The reminders cache: its clustering mode (e.g. REPL_SYNC) and whether it has a file store. */
  public record CacheHealth(String name, String mode, boolean persistent) {}

  /** The audit datasource and whether it answered a validation query. */
  public record DatabaseHealth(String name, boolean up) {}
}
