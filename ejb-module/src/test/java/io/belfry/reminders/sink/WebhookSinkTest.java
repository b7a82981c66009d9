package io.belfry.reminders.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.belfry.reminders.api.ReminderFired;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link WebhookSink} against a real HTTP server on loopback (the JDK's). */
class WebhookSinkTest {

  private static final String SECRET = "a-secret-of-32-characters-length";

  /** What the receiver saw of one request. */
  record Received(
      String method,
      String contentType,
      String fence,
      String attempt,
      String signature,
      String namespace,
      byte[] body) {}

  private HttpServer server;
  private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
  private final CountDownLatch release = new CountDownLatch(1);
  private volatile Consumer<HttpExchange> answer = exchange -> respond(exchange, 204);
  private final WebhookSink sink = new WebhookSink();

  @BeforeEach
  void startReceiver() throws IOException {
    // the receiver is on loopback: allowed here, as an admin would (see guardOn_… below)
    System.setProperty(PrivateTargets.PROPERTY, "allow");
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext(
        "/hook",
        exchange -> {
          byte[] body = exchange.getRequestBody().readAllBytes();
          var headers = exchange.getRequestHeaders();
          received.add(
              new Received(
                  exchange.getRequestMethod(),
                  headers.getFirst("Content-Type"),
                  headers.getFirst(WebhookSink.FENCE),
                  headers.getFirst(WebhookSink.ATTEMPT),
                  headers.getFirst(WebhookSink.SIGNATURE),
                  headers.getFirst(WebhookSink.NAMESPACE),
                  body));
          answer.accept(exchange);
        });
    server.start();
  }

  @AfterEach
  void stopReceiver() {
    System.clearProperty(PrivateTargets.PROPERTY);
    release.countDown();
    server.stop(0);
  }

  private String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
  }

  private static void respond(HttpExchange exchange, int status) {
    try {
      exchange.sendResponseHeaders(status, -1);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } finally {
      exchange.close();
    }
  }

  private static ReminderFired fire(String contentType, byte[] payload) {
    return new ReminderFired(
        "shop",
        "cart-42/ü",
        payload,
        contentType,
        123_456_789L,
        Instant.parse("2026-11-21T09:00:00Z"),
        Instant.parse("2026-11-21T09:00:00.012Z"),
        3,
        2);
  }

  private static JsonObject json(byte[] body) {
    try (var reader = Json.createReader(new ByteArrayInputStream(body))) {
      return reader.readObject();
    }
  }

  @Test
  void send_accepted_postsSignedJsonWithFenceAndAttemptHeaders() throws Exception {
    ReminderFired fire =
        fire("application/json", "{\"order\": 42}".getBytes(StandardCharsets.UTF_8));

    sink.send(SinkSettings.webhook(url(), SECRET), fire);

    Received request = received.poll(5, TimeUnit.SECONDS);
    assertThat(request).isNotNull();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.contentType()).isEqualTo("application/json");
    assertThat(request.fence()).isEqualTo("123456789");
    assertThat(request.attempt()).isEqualTo("2");
    assertThat(request.namespace()).isEqualTo("shop");
    assertThat(request.signature()).startsWith("sha256=").hasSize(7 + 64);
    assertThat(Signature.verify(SECRET, request.body(), request.signature())).isTrue();
    assertThat(
            Signature.verify("another-secret-of-some-length", request.body(), request.signature()))
        .isFalse();
    JsonObject body = json(request.body());
    assertThat(body.getString("namespace")).isEqualTo("shop");
    assertThat(body.getString("key")).isEqualTo("cart-42/ü");
    assertThat(body.getJsonNumber("fence").longValue()).isEqualTo(123_456_789L);
    assertThat(body.getInt("occurrence")).isEqualTo(3);
    assertThat(body.getInt("attempt")).isEqualTo(2);
    assertThat(body.getString("dueAt")).isEqualTo("2026-11-21T09:00:00Z");
    assertThat(body.getString("firedAt")).isEqualTo("2026-11-21T09:00:00.012Z");
    assertThat(body.getString("contentType")).isEqualTo("application/json");
    assertThat(body.getJsonObject("payload").getInt("order")).isEqualTo(42);
  }

  @Test
  void send_binaryPayload_base64() throws Exception {
    byte[] payload = {0, 1, 2, (byte) 0xff};
    sink.send(SinkSettings.webhook(url(), SECRET), fire("application/octet-stream", payload));

    JsonObject body = json(received.poll(5, TimeUnit.SECONDS).body());
    assertThat(Base64.getDecoder().decode(body.getString("payload"))).isEqualTo(payload);
    assertThat(body.getString("contentType")).isEqualTo("application/octet-stream");
  }

  @Test
  void send_emptyPayload_null() throws Exception {
    sink.send(SinkSettings.webhook(url(), SECRET), fire("application/octet-stream", null));

    JsonObject body = json(received.poll(5, TimeUnit.SECONDS).body());
    assertThat(body.isNull("payload")).isTrue();
  }

  @Test
  void send_signatureCoversTheExactBody_tamperedBodyFailsVerification() throws Exception {
    sink.send(SinkSettings.webhook(url(), SECRET), fire("text/plain", "hi".getBytes()));

    Received request = received.poll(5, TimeUnit.SECONDS);
    byte[] tampered = request.body().clone();
    tampered[tampered.length - 2] ^= 1;
    assertThat(Signature.verify(SECRET, tampered, request.signature())).isFalse();
  }

  @Test
  void send_receiverAnswers500_throwsNamingTheStatus_andTheOriginOnly() {
    answer = exchange -> respond(exchange, 500);
    String withToken = url() + "?token=s3cret-in-the-query";

    assertThatThrownBy(() -> sink.send(SinkSettings.webhook(withToken, SECRET), fire("a/b", null)))
        .isInstanceOf(SinkException.class)
        .hasMessageContaining("answered HTTP 500")
        .hasMessageContaining("http://127.0.0.1:" + server.getAddress().getPort())
        .hasMessageNotContaining("/hook")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void guardOn_loopbackReceiver_refusedBeforeAnythingIsSent() {
    System.clearProperty(PrivateTargets.PROPERTY);

    assertThatThrownBy(() -> sink.send(SinkSettings.webhook(url(), SECRET), fire("a/b", null)))
        .isInstanceOf(SinkException.class)
        .hasMessageContaining(PrivateTargets.PROPERTY + "=allow")
        .hasMessageNotContaining("/hook");
    assertThat(received).as("nothing reached the receiver").isEmpty();
  }

  @Test
  void send_redirect_isNotFollowedAndFails() {
    answer =
        exchange -> {
          exchange.getResponseHeaders().add("Location", url() + "/elsewhere");
          respond(exchange, 302);
        };

    assertThatThrownBy(() -> sink.send(SinkSettings.webhook(url(), SECRET), fire("a/b", null)))
        .isInstanceOf(SinkException.class)
        .hasMessageContaining("answered HTTP 302");
    assertThat(received).hasSize(1);
  }

  @Test
  void send_receiverHangsPastTheTimeout_throwsWithinAboutTheTimeout() {
    answer =
        exchange -> {
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          respond(exchange, 204);
        };
    SinkSettings settings = SinkSettings.webhook(url(), SECRET).withTimeout(Duration.ofMillis(300));

    long start = System.nanoTime();
    assertThatThrownBy(() -> sink.send(settings, fire("a/b", null)))
        .isInstanceOf(SinkException.class)
        .hasMessageContaining("timed out after PT0.3S");
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertThat(tookMillis).isBetween(250L, 3_000L);
  }

  @Test
  void send_nobodyListens_throws() throws IOException {
    int port;
    try (var socket = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    SinkSettings closed = SinkSettings.webhook("http://127.0.0.1:" + port + "/hook", SECRET);

    assertThatThrownBy(() -> sink.send(closed, fire("a/b", null)))
        .isInstanceOf(SinkException.class)
        .hasMessageContaining("failed");
  }
}
