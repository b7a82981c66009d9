package io.belfry.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.belfry.cluster.Api.AuditRecord;
import jakarta.json.Json;
import java.io.IOException;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * At-least-once delivery on three real WildFly nodes: a node killed with {@code kill -9} in the
 * middle of its deliveries. The deliveries leave the cluster through namespace {@code default}'s
 * webhook sink, to a receiver in this JVM that holds every first attempt open until the victim is
 * dead, so that every node is mid-delivery then: its delivery threads held at the receiver, the
 * rest of its leased deliveries queued behind them. The nodes run with a 5 s lease (this module's
 * pom), renewed while they wait and while they run. Before that, every node shows it uses the sink
 * just set ({@link #everyNodeDeliversThroughTheSink()}).
 *
 * <p>Runs on PostgreSQL: the nodes share database {@value #DATABASE} of the machine's PostgreSQL
 * (127.0.0.1:5432), which {@link ClusterNodes#startClean()} drops and creates, and a cluster
 * directory of their own. Why: a cluster started from {@code clean} must fire on every node within
 * its first seconds, each reminder once and without a failed delivery, across a {@code kill -9}, on
 * both databases the cluster script offers ({@link FreshClusterCheck}), and each cluster start
 * costs CI time. This suite starts a clean cluster anyway and needs nothing of H2, whereas {@code
 * FailoverClusterIT}, which runs the check on H2, also tests the H2 server itself. So the check
 * runs here first, and the node it kills is started again before the at-least-once test.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AtLeastOnceClusterIT {

  /** The cluster's own PostgreSQL database, made anew for every run. */
  static final String DATABASE = "belfry_fresh_cluster";

  private static final String SECRET = "cluster-it-webhook-secret";

  /** Keys of the reminders that show a node uses the sink; the receiver never holds them. */
  private static final String PROBE = "sink-probe-";

  /** {@code belfry.delivery.threads}' default. */
  private static final int DELIVERY_THREADS = 4;

  private final ClusterNodes cluster = ClusterNodes.onPostgresql(3, DATABASE);

  /** When the fresh cluster was started: no delivery may fail from then on. */
  private Instant started;

  /** One webhook call: which reminder, which fence and attempt, when it arrived. */
  record Call(String key, long fence, int attempt, Instant at) {}

  private final List<Call> calls = new CopyOnWriteArrayList<>();
  private final CountDownLatch releaseFirstAttempts = new CountDownLatch(1);
  private HttpServer receiver;
  private ExecutorService receiverThreads;

  @BeforeAll
  void start() throws Exception {
    receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiverThreads = Executors.newCachedThreadPool();
    receiver.setExecutor(receiverThreads);
    receiver.createContext("/hook", this::receive);
    receiver.start();
    started = Instant.now();
    cluster.startClean();
  }

  @AfterAll
  void stop() throws IOException {
    releaseFirstAttempts.countDown();
    try {
      // the next suites fire through the default sink: no webhook left to a receiver that is gone
      cluster.api(1).status("DELETE", "/namespaces/default/sink", null);
      cluster.leaveRunning();
    } finally {
      receiver.stop(0);
      receiverThreads.shutdownNow();
    }
  }

  private void receive(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String key = Json.createReader(new StringReader(body)).readObject().getString("key");
      int attempt = Integer.parseInt(exchange.getRequestHeaders().getFirst("Belfry-Attempt"));
      calls.add(
          new Call(
              key,
              Long.parseLong(exchange.getRequestHeaders().getFirst("Belfry-Fence")),
              attempt,
              Instant.now()));
      if (attempt == 1 && !key.startsWith(PROBE)) {
        // the holder stays mid-delivery until the test lets it go
        releaseFirstAttempts.await(25, TimeUnit.SECONDS);
      }
      exchange.sendResponseHeaders(204, -1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // the killed node's connection is gone; nobody reads this answer
    }
  }

  /** Every node runs before each test (the first one kills a node). */
  @BeforeEach
  void everyNodeUp() {
    cluster.startAll();
  }

  /**
   * An API token revoked through one node is refused by every node on its next request, although
   * each node remembers the tokens it found ({@code RevokedTokens}, the realm's {@code
   * KnownTokens}): without the announcement, nodes 2 and 3 would accept it for up to a minute.
   * First, because it kills nothing and the next test's check does not care what ran before it.
   */
  @Test
  @Order(-2)
  void tokenRevokedThroughOneNode_refusedByEveryNodeOnItsNextRequest() throws Exception {
    Api.Token token = cluster.api(1).createToken("cluster-revocation", "belfry-viewer");
    for (int node = 1; node <= 3; node++) {
      for (int request = 0; request < 3; request++) {
        assertThat(cluster.api(node).statusWithToken(token.secret(), "/cluster"))
            .as("node %d, request %d", node, request)
            .isEqualTo(200);
      }
    }

    assertThat(cluster.api(1).status("DELETE", "/tokens/" + token.id(), null)).isEqualTo(204);

    for (int node = 3; node >= 1; node--) {
      assertThat(cluster.api(node).statusWithToken(token.secret(), "/cluster"))
          .as("node %d, the first request after the revocation", node)
          .isEqualTo(401);
    }
  }

  /**
   * The first fires of the fresh cluster (fresh file stores, fresh PostgreSQL database), across a
   * {@code kill -9}: {@link FreshClusterCheck}, as {@code FailoverClusterIT} runs it on H2.
   */
  @Test
  @Order(-1)
  void freshCluster_firesOnEveryNodeAndAcrossAKill_onceEach_noDeliveryFails() throws Exception {
    FreshClusterCheck.firesOnEveryNodeAndAcrossAKill(cluster, started);
  }

  @Test
  @Order(0)
  void holderKilledMidDelivery_survivorsRedeliverOnceWithSameFence() throws Exception {
    int status =
        cluster
            .api(1)
            .status(
                "PUT",
                "/namespaces/default/sink",
                "{\"webhookUrl\": \"http://127.0.0.1:"
                    + receiver.getAddress().getPort()
                    + "/hook\", \"secret\": \""
                    + SECRET
                    + "\", \"timeout\": \"PT30S\"}");
    assertThat(status).isIn(200, 201);
    everyNodeDeliversThroughTheSink();
    Instant since = Instant.now();
    String run = "alo-" + since.toEpochMilli();
    // time to set them all
    Instant due = since.plusSeconds(10);
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      keys.add(run + "-" + i);
    }
    Map<String, Long> fences = new ConcurrentHashMap<>();
    Map<String, String> owners = new ConcurrentHashMap<>();
    Parallel.forEach(
        keys.size(),
        i -> {
          String key = keys.get(i);
          Api api = cluster.api(1 + i % 3);
          fences.put(
              key, api.set(key, "{\"fireAt\": \"" + due + "\", \"delivery\": \"AT_LEAST_ONCE\"}"));
          owners.put(key, api.owner(key));
        });
    int victim = 2;
    List<String> victims =
        keys.stream().filter(k -> owners.get(k).equals(cluster.name(victim))).toList();
    assertThat(victims).as("node2 owns some of them").isNotEmpty();

    // Each node has 4 delivery threads: 4 of its deliveries are held open at the receiver, the
    // rest wait in its queue, leased too. Kill the victim once it is in that state.
    int held = Math.min(DELIVERY_THREADS, victims.size());
    await(
        due.plusSeconds(30),
        () -> firstAttempts().stream().filter(c -> victims.contains(c.key())).count() >= held,
        "the victim's first attempts held open at the receiver");
    Instant killedAt = Instant.now();
    cluster.kill(victim);
    releaseFirstAttempts.countDown();

    await(
        killedAt.plusSeconds(60),
        () -> calls.stream().filter(c -> c.attempt() == 2).count() >= victims.size(),
        "the killed node's deliveries redelivered");
    Fires.await(cluster.api(1), "DELIVERED", since, keys, killedAt.plusSeconds(60));
    Thread.sleep(7_000); // longer than a lease: for a late duplicate to show

    Map<String, List<Call>> byKey =
        calls.stream()
            .filter(c -> keys.contains(c.key()))
            .collect(Collectors.groupingBy(Call::key));
    assertThat(byKey.keySet()).containsExactlyInAnyOrderElementsOf(keys);
    for (String key : keys) {
      List<Call> received = byKey.get(key);
      assertThat(received)
          .as(key)
          .allSatisfy(c -> assertThat(c.fence()).isEqualTo(fences.get(key)));
      List<Integer> attempts = received.stream().map(Call::attempt).toList();
      if (victims.contains(key)) {
        // held open (1, then 2) or still queued on the victim when it died (only 2)
        assertThat(attempts).as("attempts of %s (victim's)", key).isIn(List.of(1, 2), List.of(2));
      } else {
        assertThat(attempts)
            .as("attempts of %s (owner %s)", key, owners.get(key))
            .containsExactly(1);
      }
    }
    Map<String, List<AuditRecord>> delivered =
        Fires.byKey(cluster.api(1), "DELIVERED", since, keys);
    assertThat(delivered.keySet()).containsExactlyInAnyOrderElementsOf(keys);
    assertThat(delivered)
        .allSatisfy(
            (key, records) -> {
              assertThat(records).as(key).hasSize(1);
              assertThat(records.get(0).node()).isNotEqualTo(cluster.name(victim));
            });

    long[] takeover =
        calls.stream()
            .filter(c -> c.attempt() == 2)
            .mapToLong(c -> Duration.between(killedAt, c.at()).toMillis())
            .sorted()
            .toArray();
    Fires.report(
        String.format(
            Locale.ROOT,
            "%n# At least once, holder killed mid-delivery, %s: %d of %d deliveries held by the"
                + " victim; redelivered (attempt 2, same fence) after the kill: p50 %d ms, max %d"
                + " ms (lease 5 s)%n",
            Instant.now(),
            victims.size(),
            keys.size(),
            takeover[takeover.length / 2],
            takeover[takeover.length - 1]));
    cluster.api(1).status("DELETE", "/namespaces/default/sink", null);
    cluster.start(victim);
  }

  /**
   * Waits until every node has delivered a reminder through the webhook just set, so that its copy
   * of the sink table ({@code JdbcSinkDirectory}, read again at most every 5 s) has the sink. The
   * fresh cluster check fired before there was a sink, and a node reloads an expired copy on one
   * delivery thread while its other fires due at the same instant still use the old copy (they do
   * not wait on the database): a burst would then be delivered without the webhook, partly. Here
   * the reminders come due one at a time, 250 ms apart, from 6 s after the sink was set, so the
   * first one each node fires reloads the copy on its own.
   */
  private void everyNodeDeliversThroughTheSink() throws Exception {
    Instant since = Instant.now();
    List<String> probes = Schedule.keys(PROBE + since.toEpochMilli(), 24);
    Schedule.setDue(cluster, probes, since.plusSeconds(6), 250, 3);
    Await.until(
        "every node delivers a reminder through the webhook",
        () -> {
          Set<String> received = calls.stream().map(Call::key).collect(Collectors.toSet());
          Set<String> nodes =
              Fires.byKey(cluster.api(1), since, probes).entrySet().stream()
                  .filter(e -> received.contains(e.getKey()))
                  .map(e -> e.getValue().get(0).node())
                  .collect(Collectors.toSet());
          if (nodes.size() < cluster.size()) {
            throw new IllegalStateException("nodes that did: " + nodes);
          }
          return true;
        });
  }

  private List<Call> firstAttempts() {
    return calls.stream().filter(c -> c.attempt() == 1).toList();
  }

  private static void await(Instant deadline, BooleanSupplier condition, String what)
      throws InterruptedException {
    while (!condition.getAsBoolean()) {
      assertThat(Instant.now()).as("waiting for %s", what).isBefore(deadline);
      Thread.sleep(200);
    }
  }
}
