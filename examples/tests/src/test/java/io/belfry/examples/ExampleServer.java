package io.belfry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ShrinkWrap;

/**
 * The examples' tests' side of the server: the archives their own poms built (copied to {@code
 * target/deployments} by this module's pom), HTTP to the applications, and Belfry's audit as the
 * test servers' first admin sees it.
 */
final class ExampleServer {

  /** The test servers' first admin (failsafe's BELFRY_ADMIN_USER / BELFRY_ADMIN_PASSWORD). */
  static final String ADMIN = "it-admin";

  static final String ADMIN_PASSWORD = "it-admin-password";

  static final Duration WAIT = Duration.ofSeconds(30);

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private ExampleServer() {}

  /** An archive exactly as the build packaged it, under {@code target/deployments}. */
  static <T extends Archive<T>> T built(Class<T> type, String fileName) {
    File file = new File("target/deployments", fileName);
    if (!file.isFile()) {
      throw new IllegalStateException(file.getAbsolutePath() + " is missing: run the verify phase");
    }
    return ShrinkWrap.createFromZipFile(type, file);
  }

  /** A request without a body to an application; the answer's status and body. */
  static HttpResponse<String> call(String method, URL application, String path) {
    return send(
        HttpRequest.newBuilder(URI.create(application + path))
            .method(method, HttpRequest.BodyPublishers.noBody()));
  }

  /** A JSON array an application answers with. */
  static List<JsonObject> jsonList(URL application, String path) {
    HttpResponse<String> answer = call("GET", application, path);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    try (JsonReader reader = Json.createReader(new StringReader(answer.body()))) {
      JsonArray array = reader.readArray();
      return array.stream().map(JsonValue::asJsonObject).toList();
    }
  }

  /** Adds an item to a cart of examples/cart: its reminder is set, or replaced. */
  static void addToCart(URL cart, String cartId, String item) {
    assertThat(call("PUT", cart, "api/carts/" + cartId + "/items/" + item).statusCode())
        .isEqualTo(204);
  }

  /** The fires examples/cart observed for one cart. */
  static List<JsonObject> cartFires(URL cart, String cartId) {
    return jsonList(cart, "api/carts/abandoned").stream()
        .filter(fire -> fire.getString("cart").equals(cartId))
        .toList();
  }

  /** The types of a reminder's records in Belfry's audit archive, as its REST API lists them. */
  static List<String> auditTypes(URL belfry, String namespace, String key) {
    HttpResponse<String> answer =
        send(
            HttpRequest.newBuilder(
                    URI.create(
                        belfry
                            + "api/v1/audit?namespace="
                            + namespace
                            + "&key="
                            + URLEncoder.encode(key, StandardCharsets.UTF_8)
                            + "&limit=100"))
                .header(
                    "Authorization",
                    "Basic "
                        + Base64.getEncoder()
                            .encodeToString(
                                (ADMIN + ":" + ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8))));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    try (JsonReader reader = Json.createReader(new StringReader(answer.body()))) {
      return reader.readObject().getJsonArray("items").stream()
          .map(item -> item.asJsonObject().getString("type"))
          .toList();
    }
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    await(what, condition, () -> "");
  }

  /** Waits for the condition; if it never holds, the failure shows what {@code seen} reads then. */
  static void await(String what, BooleanSupplier condition, Supplier<String> seen)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("waited " + WAIT.toSeconds() + " s for " + what + seen.get());
      }
      Thread.sleep(100);
    }
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
