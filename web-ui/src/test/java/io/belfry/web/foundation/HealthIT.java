package io.belfry.web.foundation;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Over HTTP, as an operator's probe sees it. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HealthIT {

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.belfryWar();
  }

  @ArquillianResource URL base;

  @Test
  void health_onProvisionedServer_isUpWithReplicatedPersistentCacheAndDatabase() throws Exception {
    HttpResponse<String> response = getHealth();

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    JsonObject health = Json.createReader(new StringReader(response.body())).readObject();
    assertThat(health.getString("status")).isEqualTo("UP");
    assertThat(health.getString("node")).isEqualTo("it-node");
    assertThat(health.getJsonArray("members").getString(0)).isEqualTo("it-node");
    assertThat(health.getJsonObject("cache").getString("mode")).isEqualTo("REPL_SYNC");
    assertThat(health.getJsonObject("cache").getBoolean("persistent")).isTrue();
    assertThat(health.getJsonObject("cache").getString("availability")).isEqualTo("AVAILABLE");
    assertThat(health.getJsonObject("cache").getBoolean("stateReceived"))
        .as("a node alone holds the whole replica")
        .isTrue();
    assertThat(health.getJsonObject("datasource").getBoolean("up")).isTrue();
    assertThat(health.getJsonObject("engine").getBoolean("running")).isTrue();
  }

  @Test
  void health_afterDeployment_reportsRecoveryDone() throws Exception {
    // the test server's store is small: its recovery steps end within moments of the deployment
    long deadline = System.nanoTime() + 30_000_000_000L;
    boolean recovered = false;
    while (!recovered && System.nanoTime() < deadline) {
      recovered =
          Json.createReader(new StringReader(getHealth().body()))
              .readObject()
              .getJsonObject("engine")
              .getBoolean("recovered");
      if (!recovered) {
        Thread.sleep(100);
      }
    }
    assertThat(recovered).as("engine.recovered within 30 s").isTrue();
  }

  @Test
  void readiness_onManagementPort_includesBelfryCheckUp() throws Exception {
    HttpResponse<String> response =
        get(URI.create("http://" + base.getHost() + ":9990/health/ready"));

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonObject ready = Json.createReader(new StringReader(response.body())).readObject();
    JsonObject belfry =
        ready.getJsonArray("checks").stream()
            .map(check -> check.asJsonObject())
            .filter(check -> check.getString("name").equals("belfry"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no belfry check in " + response.body()));
    assertThat(belfry.getString("status")).isEqualTo("UP");
    assertThat(belfry.getJsonObject("data").getString("node")).isEqualTo("it-node");
  }

  private HttpResponse<String> getHealth() throws Exception {
    return get(URI.create(base + "api/v1/health"));
  }

  private static HttpResponse<String> get(URI uri) throws Exception {
    return HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
  }
}
