package io.belfry.web.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.health.HealthReport.CacheHealth;
import io.belfry.web.health.HealthReport.DatabaseHealth;
import io.belfry.web.health.HealthReport.EngineHealth;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The body of GET /health: its UP/DOWN decision and its JSON shape under Yasson (WildFly's JSON-B).
 */
class HealthReportTest {

  private static Jsonb jsonb;

  @BeforeAll
  static void createJsonb() {
    jsonb = JsonbBuilder.create();
  }

  @AfterAll
  static void closeJsonb() throws Exception {
    jsonb.close();
  }

  @Test
  void up_statusUp_returnsTrue() {
    assertThat(report(HealthReport.UP).up()).isTrue();
  }

  @Test
  void up_statusDown_returnsFalse() {
    assertThat(report(HealthReport.DOWN).up()).isFalse();
  }

  @Test
  void up_statusNull_returnsFalse() {
    assertThat(report(null).up()).isFalse();
  }

  @Test
  void toJson_upReport_writesEveryComponentAndNoUpProperty() {
    JsonObject json = parse(jsonb.toJson(report(HealthReport.UP)));

    assertThat(json.keySet())
        .containsExactlyInAnyOrder("status", "node", "members", "cache", "datasource", "engine");
    assertThat(json.getString("status")).isEqualTo("UP");
    assertThat(json.getString("node")).isEqualTo("node1");
    assertThat(json.getJsonArray("members").getValuesAs(JsonString::getString))
        .containsExactly("node1", "node2");
    JsonObject cache = json.getJsonObject("cache");
    assertThat(cache.getString("name")).isEqualTo("reminders");
    assertThat(cache.getString("mode")).isEqualTo("REPL_SYNC");
    assertThat(cache.getBoolean("persistent")).isTrue();
    assertThat(cache.getString("availability")).isEqualTo("AVAILABLE");
    assertThat(cache.getBoolean("stateReceived")).isTrue();
    JsonObject datasource = json.getJsonObject("datasource");
    assertThat(datasource.getString("name")).isEqualTo("BelfryDS");
    assertThat(datasource.getBoolean("up")).isTrue();
    JsonObject engine = json.getJsonObject("engine");
    assertThat(engine.getBoolean("running")).isTrue();
    assertThat(engine.getBoolean("recovered")).isFalse();
  }

  @Test
  void fromJson_serializedReport_equalsOriginal() {
    HealthReport report = report(HealthReport.DOWN);

    assertThat(jsonb.fromJson(jsonb.toJson(report), HealthReport.class)).isEqualTo(report);
  }

  private static HealthReport report(String status) {
    return new HealthReport(
        status,
        "node1",
        List.of("node1", "node2"),
        new CacheHealth("reminders", "REPL_SYNC", true, "AVAILABLE", true),
        new DatabaseHealth("BelfryDS", true),
        new EngineHealth(true, false));
  }

  private static JsonObject parse(String json) {
    try (JsonReader reader = Json.createReader(new StringReader(json))) {
      return reader.readObject();
    }
  }
}
