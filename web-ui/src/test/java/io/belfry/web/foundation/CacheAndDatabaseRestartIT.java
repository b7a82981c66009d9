package io.belfry.web.foundation;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Stops and starts the real server process: what the cache's file store and the H2 file database
 * held before the restart is read back after it. The restart also starts the server with {@code
 * -Dbelfry.openapi.public=false}: the public {@code /openapi} is gone, the logged-in copy stays.
 * Runs in its own failsafe execution against the manual-mode container (see web-ui/pom.xml),
 * because it owns the server's lifecycle.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class CacheAndDatabaseRestartIT {

  private static final String CONTAINER = "wildfly-manual";
  private static final String DEPLOYMENT = "probe";
  private static final String BASE = "http://127.0.0.1:8080/belfry/api/v1/test-probe/";

  @Deployment(name = DEPLOYMENT, managed = false, testable = false)
  @TargetsContainer(CONTAINER)
  static WebArchive deployment() {
    return Deployments.belfryWar().addClass(PersistenceProbe.class);
  }

  @ArquillianResource ContainerController controller;

  @ArquillianResource Deployer deployer;

  // the probe lives under /api/v1, which needs a login: the test servers' first admin
  private static final String ADMIN =
      "Basic "
          + java.util.Base64.getEncoder()
              .encodeToString(
                  "it-admin:it-admin-password".getBytes(java.nio.charset.StandardCharsets.UTF_8));

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void cacheEntryAndDatabaseRow_writtenBeforeRestart_areReadAfterIt() throws Exception {
    String key = "restart-" + UUID.randomUUID();
    controller.start(CONTAINER);
    try {
      deployer.deploy(DEPLOYMENT);
      assertThat(put("cache/" + key, "in-the-file-store")).isEqualTo(204);
      assertThat(put("sql/" + key, "in-the-h2-file")).isEqualTo(204);

      controller.stop(CONTAINER);
      // the deployment is part of the server's configuration; this start also turns the public
      // /openapi off, which needs a restart anyway (checked below, docs/security.md)
      controller.start(
          CONTAINER,
          Map.of(
              "jbossArguments",
              "--properties="
                  + System.getProperty("belfry.cluster.key-properties")
                  + " -Dbelfry.openapi.public=false"));

      assertThat(get("cache/" + key)).isEqualTo("in-the-file-store");
      assertThat(get("sql/" + key)).isEqualTo("in-the-h2-file");

      assertThat(status("http://127.0.0.1:8080/openapi"))
          .as("-Dbelfry.openapi.public=false: no public document")
          .isEqualTo(404);
      assertThat(status("http://127.0.0.1:8080/belfry/api/v1/openapi"))
          .as("the logged-in copy stays")
          .isEqualTo(200);
    } finally {
      deployer.undeploy(DEPLOYMENT);
      controller.stop(CONTAINER);
    }
  }

  private int put(String path, String body) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create(BASE + path))
                .PUT(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "text/plain")
                .header("Authorization", ADMIN)
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private int status(String url) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create(url)).header("Authorization", ADMIN).GET().build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private String get(String path) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(BASE + path))
                .header("Authorization", ADMIN)
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("GET %s", path).isEqualTo(200);
    return response.body();
  }
}
