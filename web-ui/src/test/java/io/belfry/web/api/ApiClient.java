package io.belfry.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
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
import java.util.Map;

/**
 * The REST API over real HTTP, as a client sees it: one method per request shape, answers with
 * status, content type and body. {@link #as} picks the user (or none).
 */
final class ApiClient {

  /** The test servers' first admin (failsafe's BELFRY_ADMIN_USER / BELFRY_ADMIN_PASSWORD). */
  static final Credentials ADMIN = new Credentials("it-admin", "it-admin-password");

  static final Credentials VIEWER = new Credentials("it-viewer", "it-viewer-password");

  static final Credentials ANONYMOUS = null;

  /** A user's name and password (Basic), or an API token (Bearer) when {@code token} is set. */
  record Credentials(String user, String password, String token) {

    Credentials(String user, String password) {
      this(user, password, null);
    }

    static Credentials bearer(String token) {
      return new Credentials(null, null, token);
    }

    String header() {
      if (token != null) {
        return "Bearer " + token;
      }
      return "Basic "
          + Base64.getEncoder()
              .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
  }

  record Answer(int status, String contentType, String body) {

    JsonObject json() {
      try (JsonReader reader = Json.createReader(new StringReader(body))) {
        return reader.readObject();
      }
    }

    /** Asserts an RFC 9457 problem of this answer's status, and returns it. */
    JsonObject problem() {
      assertThat(contentType).as("content type of %s", body).startsWith("application/problem+json");
      JsonObject problem = json();
      assertThat(problem.getString("type")).isNotBlank();
      assertThat(problem.getString("title")).isNotBlank();
      assertThat(problem.getInt("status")).isEqualTo(status);
      assertThat(problem.getString("detail")).isNotBlank();
      return problem;
    }

    /** The fields the problem's violations name. */
    java.util.List<String> violationFields() {
      return problem().getJsonArray("violations").stream()
          .map(JsonValue::asJsonObject)
          .map(v -> v.getString("field"))
          .toList();
    }
  }

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final String api;
  private final Credentials credentials;

  ApiClient(URL base) {
    this(base.toString() + "api/v1", ADMIN);
  }

  private ApiClient(String api, Credentials credentials) {
    this.api = api;
    this.credentials = credentials;
  }

  ApiClient as(Credentials who) {
    return new ApiClient(api, who);
  }

  /** A path segment, percent-encoded (spaces as %20, slashes kept encoded). */
  static String segment(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /**
   * The audit records of reminder {@code key} of namespace default with this type, newest first.
   */
  java.util.List<JsonObject> audit(String key, String type) {
    Answer answer =
        get("/audit?namespace=default&type=" + type + "&key=" + segment(key) + "&limit=100");
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return answer.json().getJsonArray("items").stream().map(JsonValue::asJsonObject).toList();
  }

  /**
   * Polls {@code condition} every 100 ms until it holds, failing after {@code wait}: for what the
   * server does by itself, which a test can only read back over HTTP.
   */
  static void await(String what, Duration wait, java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + wait.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as("waited %s for %s", wait, what).isNegative();
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * Sets {@code count} one-shot reminders {@code prefix + i} in namespace {@code default}, due in 1
   * or 2 s with payload {@code {"i": i}}, asserting each is created.
   *
   * @return each key's version, which is the fence its fire carries
   */
  Map<String, Long> setCounted(String prefix, int count) {
    Map<String, Long> versions = new java.util.concurrent.ConcurrentHashMap<>();
    for (int i = 0; i < count; i++) {
      String key = prefix + i;
      Answer set =
          put(
              "/reminders/default/" + segment(key),
              "{\"delay\": \"PT" + (1 + i % 2) + "S\", \"payload\": {\"i\": " + i + "}}");
      org.assertj.core.api.Assertions.assertThat(set.status()).as(set.body()).isEqualTo(201);
      versions.put(key, set.json().getJsonNumber("version").longValue());
    }
    return versions;
  }

  Answer get(String path) {
    return send("GET", path, (String) null, null);
  }

  Answer post(String path, String json) {
    return send("POST", path, json, "application/json");
  }

  Answer delete(String path) {
    return send("DELETE", path, (String) null, null);
  }

  Answer put(String path, String json) {
    return send("PUT", path, json, "application/json");
  }

  Answer send(String method, String path, String body, String contentType) {
    return send(
        method, path, body == null ? null : body.getBytes(StandardCharsets.UTF_8), contentType);
  }

  Answer send(String method, String path, byte[] body, String contentType) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(api + path))
            .timeout(Duration.ofSeconds(60))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    if (credentials != null) {
      request.header("Authorization", credentials.header());
    }
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(
          response.statusCode(),
          response.headers().firstValue("Content-Type").orElse(""),
          response.body());
    } catch (IOException e) {
      throw new IllegalStateException(method + " " + path + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Creates or updates the viewer test user (as admin). */
  void ensureViewer() {
    Answer answer =
        as(ADMIN)
            .put(
                "/users/" + VIEWER.user(),
                "{\"password\": \"" + VIEWER.password() + "\", \"roles\": [\"belfry-viewer\"]}");
    assertThat(answer.status()).as(answer.body()).isIn(200, 201);
  }
}
