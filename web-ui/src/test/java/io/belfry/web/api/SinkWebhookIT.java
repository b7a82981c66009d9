package io.belfry.web.api;

import static io.belfry.web.api.ApiClient.segment;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.belfry.reminders.sink.Signature;
import io.belfry.reminders.sink.WebhookSink;
import io.belfry.web.api.ApiClient.Answer;
import io.belfry.web.foundation.Deployments;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code default} namespace's webhook sink, end to end: configured through the REST API, fed by
 * real fires of the deployed WAR, received by an HTTP server in this test JVM on loopback.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class SinkWebhookIT {

  private static final String SECRET = "it-secret-" + UUID.randomUUID();
  private static final String SINK = "/namespaces/default/sink";
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.belfryWar();
  }

  @ArquillianResource URL base;

  /** One request the receiver got. */
  record Received(
      String fence, String attempt, String signature, byte[] body, java.time.Instant at) {
    JsonObject json() {
      try (var reader = Json.createReader(new ByteArrayInputStream(body))) {
        return reader.readObject();
      }
    }
  }

  private ApiClient api;
  private HttpServer receiver;
  private ExecutorService receiverThreads;
  private String prefix;
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final CountDownLatch release = new CountDownLatch(1);

  @BeforeEach
  void start() throws IOException {
    api = new ApiClient(base);
    prefix = "sink-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiverThreads = Executors.newCachedThreadPool();
    receiver.setExecutor(receiverThreads);
    receiver.createContext("/hook", exchange -> receive(exchange, false));
    receiver.createContext("/slow", exchange -> receive(exchange, true));
    // hangs past the timeout on a first attempt only, answers the others at once
    receiver.createContext(
        "/flaky",
        exchange ->
            receive(
                exchange, "1".equals(exchange.getRequestHeaders().getFirst(WebhookSink.ATTEMPT))));
    receiver.start();
  }

  @AfterEach
  void stop() {
    // the server outlives this class: leave namespace default without a sink for the other ITs
    api.delete(SINK);
    release.countDown();
    receiver.stop(0);
    receiverThreads.shutdownNow();
  }

  private void receive(HttpExchange exchange, boolean hang) throws IOException {
    byte[] body = exchange.getRequestBody().readAllBytes();
    var headers = exchange.getRequestHeaders();
    Received r =
        new Received(
            headers.getFirst(WebhookSink.FENCE),
            headers.getFirst(WebhookSink.ATTEMPT),
            headers.getFirst(WebhookSink.SIGNATURE),
            body,
            java.time.Instant.now());
    // other ITs' reminders of namespace default may fire meanwhile: keep only this test's
    if (r.json().getString("key").startsWith(prefix)) {
      received.add(r);
    }
    if (hang) {
      try {
        release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    exchange.sendResponseHeaders(204, -1);
    exchange.close();
  }

  /** Points namespace default's sink at {@code path} of the receiver, signed with the secret. */
  private Answer configureWebhook(String path, String timeout) {
    Answer configured =
        api.put(
            SINK,
            "{\"webhookUrl\": \""
                + url(path)
                + "\", \"secret\": \""
                + SECRET
                + "\", \"timeout\": \""
                + timeout
                + "\"}");
    assertThat(configured.status()).as(configured.body()).isIn(200, 201);
    return configured;
  }

  private String url(String path) {
    return "http://127.0.0.1:" + receiver.getAddress().getPort() + path;
  }

  @Test
  void webhook_eachFireArrivesOnce_signedAndFenced(org.junit.jupiter.api.TestReporter report) {
    Answer configured = configureWebhook("/hook", "PT5S");
    assertThat(configured.json().getBoolean("hasSecret")).isTrue();
    assertThat(configured.json()).doesNotContainKey("secret");

    int count = 6;
    Map<String, Long> versions = api.setCounted(prefix, count);

    ApiClient.await(count + " webhook calls", WAIT, () -> received.size() >= count);
    // the audit's FIRED rows come after the deliveries: once each is there, no fire is pending
    ApiClient.await(
        "the FIRED audit records",
        WAIT,
        () -> versions.keySet().stream().allMatch(k -> !api.audit(k, "FIRED").isEmpty()));

    assertThat(received).hasSize(count);
    for (Received r : received) {
      JsonObject body = r.json();
      String key = body.getString("key");
      assertThat(Signature.verify(SECRET, r.body(), r.signature()))
          .as("signature of %s", key)
          .isTrue();
      assertThat(Long.parseLong(r.fence())).isEqualTo(versions.get(key));
      assertThat(body.getJsonNumber("fence").longValue()).isEqualTo(versions.get(key));
      assertThat(r.attempt()).isEqualTo("1");
      assertThat(body.getString("namespace")).isEqualTo("default");
      assertThat(body.getString("contentType")).isEqualTo("application/json");
      assertThat(body.getJsonObject("payload").getInt("i"))
          .isEqualTo(Integer.parseInt(key.substring(prefix.length())));
    }
    assertThat(received.stream().map(r -> r.json().getString("key")).distinct())
        .as("one call per reminder, no duplicates")
        .hasSize(count);
    for (String key : versions.keySet()) {
      assertThat(api.audit(key, "DELIVERY_FAILED")).isEmpty();
    }
    // same machine, same clock: how long after its due time each fire reached the receiver
    long worst =
        received.stream()
            .mapToLong(
                r ->
                    Duration.between(java.time.Instant.parse(r.json().getString("dueAt")), r.at())
                        .toMillis())
            .max()
            .orElseThrow();
    report.publishEntry("webhook arrival after due time, worst of " + count + " (ms)", "" + worst);
    assertThat(worst).as("arrival after due time, ms").isLessThan(5_000);
  }

  @Test
  void webhook_timesOut_deliveryFailedAudited_atMostOnceNoRetry() {
    configureWebhook("/slow", "PT0.5S");
    String key = prefix + "slow";

    Answer set = api.put("/reminders/default/" + segment(key), "{\"delay\": \"PT1S\"}");
    assertThat(set.status()).as(set.body()).isEqualTo(201);
    assertThat(set.json().getString("delivery")).isEqualTo("AT_MOST_ONCE");

    ApiClient.await(
        "the DELIVERY_FAILED audit record",
        WAIT,
        () -> !api.audit(key, "DELIVERY_FAILED").isEmpty());
    JsonObject failed = api.audit(key, "DELIVERY_FAILED").get(0);
    assertThat(failed.getString("detail"))
        .contains("timed out after PT0.5S")
        .as("the origin only: a path or query may carry a token, and viewers read the audit")
        .contains(url(""))
        .doesNotContain("/slow");
    assertThat(failed.getJsonNumber("version").longValue())
        .isEqualTo(set.json().getJsonNumber("version").longValue());
    assertThat(api.audit(key, "FIRED"))
        .as("FIRED is audited only for a delivery that succeeded")
        .isEmpty();
    assertThat(received).as("at most once: one call, no retry").hasSize(1);
  }

  @Test
  void webhook_timesOutOnce_atLeastOnce_retriedWithSameFence() {
    configureWebhook("/flaky", "PT0.5S");
    String key = prefix + "flaky";

    Answer set =
        api.put(
            "/reminders/default/" + segment(key),
            "{\"delay\": \"PT1S\", \"delivery\": \"AT_LEAST_ONCE\"}");
    assertThat(set.status()).as(set.body()).isEqualTo(201);
    long version = set.json().getJsonNumber("version").longValue();

    ApiClient.await(
        "the DELIVERED audit record", WAIT, () -> !api.audit(key, "DELIVERED").isEmpty());

    assertThat(received).extracting(Received::attempt).containsExactly("1", "2");
    assertThat(received)
        .allSatisfy(
            r -> {
              assertThat(Long.parseLong(r.fence())).isEqualTo(version);
              assertThat(Signature.verify(SECRET, r.body(), r.signature())).isTrue();
            });
    assertThat(Duration.between(received.get(0).at(), received.get(1).at()))
        .as("the default back-off before attempt 2 is 0.5 s to 1 s, after the 0.5 s timeout")
        .isGreaterThanOrEqualTo(Duration.ofMillis(500));
    JsonObject retry = api.audit(key, "RETRY_SCHEDULED").get(0);
    assertThat(retry.getString("detail")).contains("attempt 1 failed").contains("timed out");
    assertThat(retry.getJsonNumber("version").longValue()).isEqualTo(version);
    assertThat(api.audit(key, "DELIVERING")).hasSize(2);
    assertThat(api.audit(key, "DELIVERED"))
        .singleElement()
        .satisfies(d -> assertThat(d.getString("detail")).isEqualTo("attempt 2"));
    assertThat(api.audit(key, "DEAD_LETTERED")).isEmpty();
    assertThat(api.get("/reminders/default/" + segment(key)).status())
        .as("committed: a one-shot is gone once delivered")
        .isEqualTo(404);
  }

  @Test
  void put_badSettings_400NamingTheField_nothingChanged() {
    String namespace = "/namespaces/" + prefix + "ns/sink";
    String good =
        "{\"webhookUrl\": \"https://hooks.example.com/a\", \"secret\": \"" + SECRET + "\"}";
    assertThat(api.put(namespace, good).status()).isEqualTo(201);
    JsonObject before = api.get(namespace).json();
    assertThat(before.getString("timeout")).isEqualTo("PT5S");

    Map<String, String> bad =
        Map.of(
            "{\"webhookUrl\": \"ftp://x/y\", \"secret\": \"" + SECRET + "\"}",
            "webhookUrl",
            "{\"webhookUrl\": \"hooks.example.com\"}",
            "webhookUrl",
            "{\"secret\": \"" + SECRET + "\"}",
            "webhookUrl",
            "{\"webhookUrl\": \"https://x.example/\", \"secret\": \"short\"}",
            "secret",
            "{\"webhookUrl\": \"https://x.example/\", \"timeout\": \"PT31S\"}",
            "timeout",
            "{\"webhookUrl\": \"https://x.example/\", \"timeout\": \"soon\"}",
            "timeout",
            "{\"webhookUrl\": 42}",
            "webhookUrl",
            "{\"webhookUrl\": \"https://x.example/\", \"retries\": 3}",
            "retries");
    bad.forEach(
        (body, field) -> {
          Answer answer = api.put(namespace, body);
          assertThat(answer.status()).as(body + " -> " + answer.body()).isEqualTo(400);
          assertThat(answer.violationFields()).as(body).contains(field);
        });
    assertThat(api.get(namespace).json()).isEqualTo(before);

    Answer badNamespace = api.put("/namespaces/" + segment("a b") + "/sink", good);
    assertThat(badNamespace.status()).isEqualTo(400);
    assertThat(badNamespace.violationFields()).containsExactly("namespace");

    // without a secret, a replacement keeps the stored one
    Answer kept =
        api.put(
            namespace, "{\"webhookUrl\": \"https://hooks.example.com/b\", \"timeout\": \"PT2S\"}");
    assertThat(kept.status()).as(kept.body()).isEqualTo(200);
    assertThat(kept.json().getBoolean("hasSecret")).isTrue();
    assertThat(kept.json().getString("webhookUrl")).isEqualTo("https://hooks.example.com/b");
    assertThat(kept.json().getString("updatedBy")).isEqualTo(ApiClient.ADMIN.user());

    assertThat(api.delete(namespace).status()).isEqualTo(204);
    assertThat(api.get(namespace).status()).isEqualTo(404);
    assertThat(api.get(namespace).problem().getString("type")).endsWith("sink-not-found");
    assertThat(api.delete(namespace).status()).isEqualTo(404);
  }
}
