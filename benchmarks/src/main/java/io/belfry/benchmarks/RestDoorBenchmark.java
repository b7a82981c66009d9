package io.belfry.benchmarks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

/**
 * The REST door of one running node: authenticated {@code PUT /reminders/default/{key}} (HTTP
 * Basic, or an API token with {@code bearer:TOKEN}; keep-alive, one connection per client thread),
 * closed loop, first 1 client then 8, each for a warm-up and a measured run. Every reminder is due
 * a day later, so nothing fires meanwhile.
 *
 * <pre>
 * benchmarks/rest-door http://127.0.0.1:8080/belfry/api/v1 USER:PASSWORD|bearer:TOKEN [seconds]
 * </pre>
 *
 * Prints one line per run: clients, acknowledged, failed, per second, p50/p99 latency in ms.
 */
public final class RestDoorBenchmark {

  private static final int WARM_UP_SECONDS = 5;

  private RestDoorBenchmark() {}

  public static void main(String[] args) {
    if (args.length < 2) {
      System.err.println("usage: RestDoorBenchmark API_BASE USER:PASSWORD|bearer:TOKEN [seconds]");
      System.exit(2);
    }
    String api = args[0];
    String authorization = RestAuth.header(args[1]);
    int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 15;
    String run = "door-" + System.currentTimeMillis() + "-";
    for (int clients : new int[] {1, 8}) {
      HttpClient[] connections = new HttpClient[clients];
      for (int c = 0; c < clients; c++) {
        connections[c] = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      }
      Clients.Op put =
          (thread, i) -> {
            String body = "{\"fireAt\":\"" + Instant.now().plus(Duration.ofDays(1)) + "\"}";
            HttpResponse<Void> answer =
                connections[thread].send(
                    HttpRequest.newBuilder(
                            URI.create(api + "/reminders/default/" + run + clients + "-" + i))
                        .header("Authorization", authorization)
                        .header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                    HttpResponse.BodyHandlers.discarding());
            if (answer.statusCode() >= 300) {
              throw new IllegalStateException("PUT answered " + answer.statusCode());
            }
          };
      Clients.forSeconds(clients, WARM_UP_SECONDS, put);
      Clients.Outcome measured = Clients.forSeconds(clients, seconds, put);
      System.out.printf(
          "clients=%d acknowledged=%d failed=%d perSecond=%.0f p50=%.2fms p99=%.2fms%s%n",
          clients,
          measured.acked(),
          measured.failed(),
          measured.perSecond(),
          measured.latencyMicros().getValueAtPercentile(50) / 1000.0,
          measured.latencyMicros().getValueAtPercentile(99) / 1000.0,
          measured.firstError() == null ? "" : " firstError=" + measured.firstError());
    }
  }
}
