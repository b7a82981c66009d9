package io.belfry.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.foundation.Deployments;
import java.io.Reader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The OpenAPI document the server serves at {@code /openapi} is the hand-written {@code
 * docs/openapi.yaml} (copied into the WAR, annotation scanning off): the same operations, with the
 * same ids, at the same URLs. The checked-in document has the server {@code /belfry/api/v1} and
 * paths relative to it; the served one has the full paths (see {@code OpenApiServerPath}), so both
 * are compared as server URL + path.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class OpenApiIT {

  /** The checked-in document, relative to this module (where failsafe runs). */
  private static final Path CHECKED_IN = Path.of("..", "docs", "openapi.yaml");

  private static final Set<String> METHODS =
      Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.belfryWar();
  }

  @ArquillianResource URL base;

  @Test
  void servedDocument_isTheCheckedInOne() throws Exception {
    // /openapi is the server's, not the deployment's: same host and port, root path
    URI openapi =
        URI.create(
            base.getProtocol() + "://" + base.getHost() + ":" + port() + "/openapi?format=JSON");
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(openapi).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    // JSON is YAML: one reader for both
    Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
    Map<String, Object> served = yaml.load(response.body());
    Map<String, Object> checkedIn;
    try (Reader file = Files.newBufferedReader(CHECKED_IN)) {
      checkedIn = yaml.load(file);
    }

    assertThat(operations(served))
        .as("URLs, operations and operation ids of /openapi")
        .isEqualTo(operations(checkedIn))
        .containsKey("/belfry/api/v1/reminders/{namespace}/{key}");
    assertThat(((Map<?, ?>) served.get("info")).get("title"))
        .isEqualTo(((Map<?, ?>) checkedIn.get("info")).get("title"));
  }

  @Test
  void loggedInCopy_needsALogin_andIsTheCheckedInDocument() throws Exception {
    ApiClient api = new ApiClient(base);
    api.ensureViewer();
    assertThat(api.as(ApiClient.ANONYMOUS).get("/openapi").status()).isEqualTo(401);
    ApiClient.Answer viewer = api.as(ApiClient.VIEWER).get("/openapi");
    assertThat(viewer.status()).as(viewer.body()).isEqualTo(200);
    assertThat(viewer.body())
        .as("the document as checked in, relative paths and all")
        .isEqualTo(Files.readString(CHECKED_IN));
  }

  private int port() {
    return base.getPort() == -1 ? base.getDefaultPort() : base.getPort();
  }

  /** server URL + path → "method operationId", sorted. */
  private static Map<String, Set<String>> operations(Map<String, Object> document) {
    List<?> servers = (List<?>) document.get("servers");
    String server =
        servers == null || servers.isEmpty()
            ? ""
            : String.valueOf(((Map<?, ?>) servers.get(0)).get("url")).replaceFirst("/$", "");
    Map<String, Set<String>> operations = new TreeMap<>();
    ((Map<?, ?>) document.get("paths"))
        .forEach(
            (path, item) -> {
              Set<String> ops = new TreeSet<>();
              ((Map<?, ?>) item)
                  .forEach(
                      (method, operation) -> {
                        if (METHODS.contains(String.valueOf(method))) {
                          ops.add(method + " " + ((Map<?, ?>) operation).get("operationId"));
                        }
                      });
              operations.put(server + path, ops);
            });
    return operations;
  }
}
