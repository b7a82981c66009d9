package io.belfry.reminders.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * HTTP to a test deployment's probe, for the *RestartIT tests, which stop and start the server and
 * so run outside it: plain calls, plus {@link RestartProbe}'s set and long-polled fire count.
 */
final class ProbeClient {

  private final String base;
  private final HttpClient http = HttpClient.newHttpClient();

  /**
   * @param base the deployment's root, e.g. {@code http://127.0.0.1:8080/restart-it/}
   */
  ProbeClient(String base) {
    this.base = base;
  }

  /** Sets {@code key} to fire after {@code delayMs} through {@link RestartProbe}. */
  void set(String key, long delayMs) throws Exception {
    assertThat(put("probe/reminders/" + key + "?delayMs=" + delayMs, ""))
        .as("set %s", key)
        .isEqualTo(204);
  }

  /** How often {@code key} fired; with {@code atLeast} above 0, first waits up to {@code wait}. */
  int fires(String key, int atLeast, Duration wait) throws Exception {
    String query = "?atLeast=" + atLeast + "&waitMs=" + (atLeast > 0 ? wait.toMillis() : 0);
    return Integer.parseInt(body("probe/fires/" + key + query).trim());
  }

  /** The body of a {@code GET} that must answer 200. */
  String body(String path) throws Exception {
    HttpResponse<String> response = send(HttpRequest.newBuilder(uri(path)).GET());
    assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
    return response.body();
  }

  int status(String path) throws Exception {
    return send(HttpRequest.newBuilder(uri(path)).GET()).statusCode();
  }

  int put(String path, String body) throws Exception {
    return send(HttpRequest.newBuilder(uri(path))
            .header("Content-Type", "text/plain")
            .PUT(HttpRequest.BodyPublishers.ofString(body)))
        .statusCode();
  }

  int delete(String path) throws Exception {
    return send(HttpRequest.newBuilder(uri(path)).DELETE()).statusCode();
  }

  /** {@code segment} as one path segment (a cache key holds ':' and may hold '/'). */
  static String segment(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private URI uri(String path) {
    return URI.create(base + path);
  }
}
