package io.belfry.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.belfry.web.api.ApiClient.Answer;
import io.belfry.web.app.ShopReminders;
import io.belfry.web.app.ShopServlet;
import io.belfry.web.foundation.Deployments;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An application WAR built only as the user guide says (the engine jar and the manifest line, no
 * audit module) deployed beside {@code belfry.war}: its namespace's set and fire are in the audit
 * archive once each, and its fires are forwarded to the namespace's webhook, through the node's
 * archive that {@code belfry.war} publishes (docs/architecture-notes in
 * io.belfry.reminders.archive).
 */
@ExtendWith(ArquillianExtension.class)
class ApplicationNamespaceIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String SINK = "/namespaces/" + ShopReminders.NAMESPACE + "/sink";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Deployment(name = "belfry", order = 1, testable = false)
  static WebArchive belfry() {
    return Deployments.belfryWar();
  }

  @Deployment(name = "shop", order = 2, testable = false)
  static WebArchive shop() {
    return Deployments.application("shop-app", ShopReminders.class, ShopServlet.class);
  }

  @ArquillianResource
  @OperateOnDeployment("belfry")
  URL belfry;

  @ArquillianResource
  @OperateOnDeployment("shop")
  URL shop;

  private ApiClient api;
  private HttpServer receiver;
  private final List<String> forwarded = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    api = new ApiClient(belfry);
    receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.createContext(
        "/hook",
        exchange -> {
          forwarded.add(
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    receiver.start();
  }

  @AfterEach
  void stop() {
    api.delete(SINK);
    receiver.stop(0);
  }

  @Test
  void applicationWithoutAuditModule_setAndFire_archivedOnceEach_andForwarded() throws Exception {
    Answer sink =
        api.put(
            SINK,
            "{\"webhookUrl\": \"http://127.0.0.1:"
                + receiver.getAddress().getPort()
                + "/hook\", \"secret\": \"app-secret-"
                + UUID.randomUUID()
                + "\"}");
    assertThat(sink.status()).as(sink.body()).isIn(200, 201);
    String key = "order-" + UUID.randomUUID();

    assertThat(shop("POST", "shop/set?key=" + key).statusCode()).isEqualTo(204);

    ApiClient.await(
        "the application to observe its fire",
        WAIT,
        () -> shop("GET", "shop/fired").body().contains(key + "=paid"));
    ApiClient.await(
        "the webhook to receive the fire",
        WAIT,
        () -> forwarded.stream().anyMatch(b -> b.contains(key)));
    ApiClient.await(
        "SET and FIRED in the archive",
        WAIT,
        () -> types(key).containsAll(List.of("SET", "FIRED")));
    assertThat(types(key)).as("each archived once").containsExactlyInAnyOrder("SET", "FIRED");
  }

  /** The types of the audit records of {@code key} in the application's namespace. */
  private List<String> types(String key) {
    Answer answer =
        api.get(
            "/audit?namespace="
                + ShopReminders.NAMESPACE
                + "&key="
                + ApiClient.segment(key)
                + "&limit=100");
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return answer.json().getJsonArray("items").stream()
        .map(JsonValue::asJsonObject)
        .map((JsonObject item) -> item.getString("type"))
        .toList();
  }

  private HttpResponse<String> shop(String method, String path) {
    try {
      return HTTP.send(
          HttpRequest.newBuilder(URI.create(shop + path))
              .method(method, HttpRequest.BodyPublishers.noBody())
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
