package io.belfry.cluster;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/** One node's REST API, as the cluster tests' client and checker use it. */
final class Api {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final String AUTHORIZATION =
      "Basic "
          + Base64.getEncoder()
              .encodeToString(
                  (ClusterNodes.ADMIN + ":" + ClusterNodes.ADMIN_PASSWORD)
                      .getBytes(StandardCharsets.UTF_8));

  /** One audit record, the fields the checks need. */
  record AuditRecord(
      String type,
      String key,
      long version,
      long occurrence,
      Long latenessMs,
      String node,
      Instant at) {}

  private final String base;

  Api(String base) {
    this.base = base;
  }

  /**
   * What a PUT answered: the version, and whether it created the reminder (201) or replaced one.
   */
  record SetAnswer(long version, boolean created) {}

  /** PUT a reminder; returns its version. */
  long set(String key, String body) throws IOException {
    return put(key, body).version();
  }

  /** PUT a reminder. */
  SetAnswer put(String key, String body) throws IOException {
    HttpResponse<String> response = send("PUT", "/reminders/default/" + key, body);
    if (response.statusCode() != 200 && response.statusCode() != 201) {
      throw new IOException("PUT " + key + ": " + response.statusCode() + " " + response.body());
    }
    return new SetAnswer(
        json(response.body()).getJsonNumber("version").longValue(), response.statusCode() == 201);
  }

  /**
   * Sets reminders of namespace {@code default} in one {@code POST}, each item a PUT body with its
   * {@code "key"}; returns how many were created.
   */
  int setAll(List<String> items) throws IOException {
    HttpResponse<String> response =
        send(
            "POST",
            "/reminders/default",
            "{\"reminders\": [" + String.join(",", items) + "]}",
            // up to a thousand replicated writes, issued together; slow on a busy cluster
            Duration.ofMinutes(5));
    if (response.statusCode() != 200) {
      throw new IOException("POST batch: " + response.statusCode() + " " + response.body());
    }
    return json(response.body()).getInt("created");
  }

  /** What a request answered, whatever it was (for requests that may be refused). */
  record Answer(int status, String retryAfter, String problemType) {}

  /** {@code method} on reminder {@code key}; the answer whatever it is, never an exception. */
  Answer request(String method, String key, String body) throws IOException {
    HttpResponse<String> response = send(method, "/reminders/default/" + key, body);
    String type = null;
    if (response.headers().firstValue("Content-Type").orElse("").contains("problem+json")) {
      type = json(response.body()).getString("type", null);
    }
    return new Answer(
        response.statusCode(), response.headers().firstValue("Retry-After").orElse(null), type);
  }

  /** {@code method} on any path of the API; the status, whatever it is. */
  int status(String method, String path, String body) throws IOException {
    HttpResponse<String> response = send(method, path, body);
    return response.statusCode();
  }

  /** The version this node's replica holds for a live reminder; -1 when there is none (404). */
  long version(String key) throws IOException {
    HttpResponse<String> response = send("GET", "/reminders/default/" + key, null);
    if (response.statusCode() == 404) {
      return -1;
    }
    if (response.statusCode() != 200) {
      throw new IOException("GET " + key + ": " + response.statusCode() + " " + response.body());
    }
    return json(response.body()).getJsonNumber("version").longValue();
  }

  /** DELETE a reminder; true if it was cancelled, false if it was not there (404). */
  boolean cancel(String key) throws IOException {
    HttpResponse<String> response = send("DELETE", "/reminders/default/" + key, null);
    if (response.statusCode() != 200
        && response.statusCode() != 204
        && response.statusCode() != 404) {
      throw new IOException("DELETE " + key + ": " + response.statusCode() + " " + response.body());
    }
    return response.statusCode() != 404;
  }

  /** The node that fires this reminder now. */
  String owner(String key) throws IOException {
    HttpResponse<String> response = send("GET", "/reminders/default/" + key, null);
    if (response.statusCode() != 200) {
      throw new IOException("GET " + key + ": " + response.statusCode() + " " + response.body());
    }
    return json(response.body()).getString("owner");
  }

  /** One stored entry as the listing shows it: live or tombstone. */
  record Stored(String key, long version, String state) {}

  /**
   * Every entry of namespace {@code default} whose key starts with {@code prefix}, tombstones too.
   */
  Map<String, Stored> stored(String prefix) throws IOException {
    Map<String, Stored> entries = new HashMap<>();
    forEachItem(
        "/reminders?namespace=default&prefix=" + URLEncoder.encode(prefix, StandardCharsets.UTF_8),
        item ->
            entries.put(
                item.getString("key"),
                new Stored(
                    item.getString("key"),
                    item.getJsonNumber("version").longValue(),
                    item.getString("state"))));
    return entries;
  }

  /** This node's health status and its cache's availability, e.g. {@code DOWN DEGRADED_MODE}. */
  String health() throws IOException {
    JsonObject health = healthReport();
    return health.getString("status")
        + " "
        + health.getJsonObject("cache").getString("availability");
  }

  /** Whether this node's engine has read its whole store since it started (its health report). */
  boolean recovered() throws IOException {
    return healthReport().getJsonObject("engine").getBoolean("recovered");
  }

  /** Whether this node holds the whole replica: its state transfer has ended (health report). */
  boolean stateReceived() throws IOException {
    return healthReport().getJsonObject("cache").getBoolean("stateReceived");
  }

  /** The members this node sees, from its health report. */
  List<String> members() throws IOException {
    return healthReport().getJsonArray("members").getValuesAs(JsonString.class).stream()
        .map(JsonString::getString)
        .toList();
  }

  /** {@code GET /cluster}: each member's armed reminders, as this node counts them. */
  Map<String, Long> armedByMember() throws IOException {
    Map<String, Long> armed = new TreeMap<>();
    json(send("GET", "/cluster", null).body())
        .getJsonArray("members")
        .getValuesAs(JsonObject.class)
        .forEach(
            m -> armed.put(m.getString("node"), m.getJsonNumber("armedReminders").longValue()));
    return armed;
  }

  /** {@code GET /health}'s body, whatever its status (503 when the node is DOWN). */
  private JsonObject healthReport() throws IOException {
    return json(send("GET", "/health", null).body());
  }

  /** Every audit record of namespace {@code default} and this type since {@code since}. */
  List<AuditRecord> audit(String type, Instant since) throws IOException {
    List<AuditRecord> records = new ArrayList<>();
    forEachItem(
        "/audit?namespace=default&type=" + type + "&since=" + since,
        item ->
            records.add(
                new AuditRecord(
                    item.getString("type"),
                    item.getString("key"),
                    item.getJsonNumber("version").longValue(),
                    item.getJsonNumber("occurrence").longValue(),
                    item.isNull("latenessMs") ? null : item.getJsonNumber("latenessMs").longValue(),
                    item.getString("node"),
                    Instant.parse(item.getString("at")))));
    return records;
  }

  /** Pages through a listing (items, next cursor) 1,000 at a time. */
  private void forEachItem(String query, Consumer<JsonObject> visitor) throws IOException {
    String cursor = null;
    do {
      String page =
          query
              + "&limit=1000"
              + (cursor == null
                  ? ""
                  : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
      HttpResponse<String> response = send("GET", page, null);
      if (response.statusCode() != 200) {
        throw new IOException("GET " + page + ": " + response.statusCode() + " " + response.body());
      }
      JsonObject body = json(response.body());
      body.getJsonArray("items").getValuesAs(JsonObject.class).forEach(visitor);
      cursor = body.isNull("next") ? null : body.getString("next");
    } while (cursor != null);
  }

  /** An API token just made: its id and its secret. */
  record Token(String id, String secret) {}

  /** Makes an API token with one role ({@code POST /tokens}). */
  Token createToken(String name, String role) throws IOException {
    HttpResponse<String> response =
        send("POST", "/tokens", "{\"name\": \"" + name + "\", \"roles\": [\"" + role + "\"]}");
    if (response.statusCode() != 201) {
      throw new IOException("POST /tokens: " + response.statusCode() + " " + response.body());
    }
    JsonObject created = json(response.body());
    return new Token(created.getString("id"), created.getString("token"));
  }

  /** {@code GET path} sent with {@code Authorization: Bearer secret}; the status. */
  int statusWithToken(String secret, String path) throws IOException {
    return send("GET", path, null, Duration.ofSeconds(30), "Bearer " + secret).statusCode();
  }

  private HttpResponse<String> send(String method, String path, String body) throws IOException {
    return send(method, path, body, Duration.ofSeconds(30));
  }

  private HttpResponse<String> send(String method, String path, String body, Duration timeout)
      throws IOException {
    return send(method, path, body, timeout, AUTHORIZATION);
  }

  private HttpResponse<String> send(
      String method, String path, String body, Duration timeout, String authorization)
      throws IOException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(timeout)
            .header("Authorization", authorization)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    try {
      return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static JsonObject json(String body) {
    return Json.createReader(new StringReader(body)).readObject();
  }
}
