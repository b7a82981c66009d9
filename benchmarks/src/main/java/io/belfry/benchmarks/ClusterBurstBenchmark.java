package io.belfry.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A same-instant burst on a running cluster, through its REST API: {@code count} reminders of one
 * namespace (keys {@code burst-<epochMillis>-<i>}), all due at one instant {@code lead} seconds
 * ahead (or, with {@code spread} seconds, due one after the other at an even rate over that long
 * from that instant: a steady rate of {@code count / spread} fires a second), set by batch {@code
 * POST /reminders/{namespace}} (at most 1,000 items each) to the node given; then, once every key
 * has a {@code FIRED} audit record and the settle time after the due instant has passed (or 120 s
 * after it at most), the fires read back from {@code GET /audit} (shared by all nodes). HTTP Basic,
 * or an API token with {@code bearer:TOKEN}.
 *
 * <pre>
 * benchmarks/cluster-burst http://127.0.0.1:8080/belfry/api/v1 USER:PASSWORD|bearer:TOKEN \
 *     [count=300] [lead seconds=12] [namespace=default] [case name] [spread seconds=0]
 * </pre>
 *
 * The case name of the table row may also come from {@code BELFRY_BURST_CASE}. Prints keys set,
 * fired, fired more than once and never fired, {@code DELIVERY_FAILED} records, fires per node,
 * lateness first/p50/p99/max (the audit's {@code latenessMs}), the time from the (last) due instant
 * to the last fire, and a row for the tables of docs/performance/cluster.md and comparison.md.
 * Exits 1 if any key fired twice or never, 3 if loading took past the due instant.
 */
public final class ClusterBurstBenchmark {

  private static final int BATCH = 1_000;
  private static final Duration SETTLE = Duration.ofSeconds(15);
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final Duration POLL = Duration.ofSeconds(1);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private final String api;
  private final String authorization;

  private ClusterBurstBenchmark(String api, String authorization) {
    this.api = api;
    this.authorization = authorization;
  }

  /** One audit record of the burst. */
  private record Event(String key, String node, long latenessMs, Instant at) {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println(
          "usage: ClusterBurstBenchmark API_BASE USER:PASSWORD|bearer:TOKEN"
              + " [count=300] [leadSeconds=12] [namespace=default] [case] [spreadSeconds=0]");
      System.exit(2);
    }
    String api = args[0].replaceAll("/+$", "");
    int count = args.length > 2 ? Integer.parseInt(args[2]) : 300;
    int lead = args.length > 3 ? Integer.parseInt(args[3]) : 12;
    String namespace = args.length > 4 ? args[4] : "default";
    String caseName =
        args.length > 5
            ? args[5]
            : System.getenv().getOrDefault("BELFRY_BURST_CASE", count + " due at one instant");
    int spread = args.length > 6 ? Integer.parseInt(args[6]) : 0;
    if (count < 1 || lead < 1 || spread < 0) {
      System.err.println("count and lead seconds must be at least 1, spread seconds at least 0");
      System.exit(2);
    }
    System.exit(
        new ClusterBurstBenchmark(api, RestAuth.header(args[1]))
            .run(count, lead, namespace, caseName, spread));
  }

  private int run(int count, int lead, String namespace, String caseName, int spread)
      throws Exception {
    Instant start = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    String prefix = "burst-" + start.toEpochMilli() + "-";
    Instant fireAt = start.plusSeconds(lead);
    // the last due instant; every one at once when there is no spread
    Instant lastDue = fireAt.plusSeconds(spread);

    int set = 0;
    for (int from = 0; from < count; from += BATCH) {
      ObjectNode body = JSON.createObjectNode();
      ArrayNode items = body.putArray("reminders");
      for (int i = from; i < Math.min(count, from + BATCH); i++) {
        Instant due = fireAt.plusMillis(spread * 1_000L * i / count);
        items.addObject().put("key", prefix + i).put("fireAt", due.toString());
      }
      JsonNode answer =
          send(
              HttpRequest.newBuilder(uri("/reminders/" + encode(namespace)))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
      set += answer.path("created").asInt() + answer.path("replaced").asInt();
    }
    Instant loaded = Instant.now();
    System.out.printf(
        "set %d reminders of %s (%s0..%d) in %d ms, due from %s to %s%n",
        set,
        namespace,
        prefix,
        count - 1,
        Duration.between(start, loaded).toMillis(),
        fireAt,
        lastDue);
    if (!loaded.isBefore(fireAt)) {
      System.out.printf(
          "FAILED: loading finished %d ms after the due instant; give more lead seconds%n",
          Duration.between(fireAt, loaded).toMillis());
      return 3;
    }

    // The settle time for late duplicates and audit rows; then until every key fired, or timeout.
    Instant deadline = lastDue.plus(TIMEOUT);
    sleepUntil(lastDue.plus(SETTLE));
    while (true) {
      try {
        if (audit("FIRED", namespace, prefix, start).stream().map(Event::key).distinct().count()
            >= count) {
          break;
        }
      } catch (IOException | IllegalStateException e) {
        System.out.println("audit not readable yet: " + e.getMessage());
      }
      if (Instant.now().isAfter(deadline)) {
        System.out.printf(
            "not every key fired within %d s of the due instant%n", TIMEOUT.toSeconds());
        break;
      }
      Thread.sleep(POLL.toMillis());
    }

    List<Event> fires = audit("FIRED", namespace, prefix, start);
    List<Event> failed = audit("DELIVERY_FAILED", namespace, prefix, start);
    Map<String, Integer> perKey = new HashMap<>();
    Map<String, Integer> perNode = new TreeMap<>();
    for (Event e : fires) {
      perKey.merge(e.key(), 1, Integer::sum);
      perNode.merge(e.node(), 1, Integer::sum);
    }
    List<String> twice = new ArrayList<>();
    List<String> never = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int n = perKey.getOrDefault(prefix + i, 0);
      if (n == 0) {
        never.add(prefix + i);
      } else if (n > 1) {
        twice.add(prefix + i);
      }
    }
    long[] lateness = fires.stream().mapToLong(Event::latenessMs).sorted().toArray();
    long lastFire =
        fires.stream()
            .map(Event::at)
            .max(Instant::compareTo)
            .map(at -> Duration.between(lastDue, at).toMillis())
            .orElse(-1L);

    System.out.printf(
        "keys set %d, fired %d, fired more than once %d, never fired %d; DELIVERY_FAILED %d%n",
        set, perKey.size(), twice.size(), never.size(), failed.size());
    System.out.printf(
        "fires %d, per node: %s%n",
        fires.size(),
        perNode.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(", ")));
    System.out.printf(
        "lateness first %d ms, p50 %d ms, p99 %d ms, max %d ms; last due instant to last fire %d"
            + " ms%n",
        percentile(lateness, 0),
        percentile(lateness, 50),
        percentile(lateness, 99),
        percentile(lateness, 100),
        lastFire);
    if (!twice.isEmpty()) {
      System.out.println("fired more than once: " + first(twice));
    }
    if (!never.isEmpty()) {
      System.out.println("never fired: " + first(never));
    }
    System.out.println();
    System.out.println("| case | fires | per node | first ms | p50 ms | p99 ms | max ms |");
    System.out.println("|---|---|---|---|---|---|---|");
    System.out.printf(
        Locale.ROOT,
        "| %s | %,d | %s | %,d | %,d | %,d | %,d |%n",
        caseName,
        fires.size(),
        perNode.values().stream().map(String::valueOf).collect(Collectors.joining(" / ")),
        percentile(lateness, 0),
        percentile(lateness, 50),
        percentile(lateness, 99),
        percentile(lateness, 100));
    if (!twice.isEmpty() || !never.isEmpty()) {
      System.out.printf(
          "FAILED: %d keys fired more than once, %d never%n", twice.size(), never.size());
      return 1;
    }
    return 0;
  }

  /** The records of one type of the burst's keys since {@code since}, every page. */
  private List<Event> audit(String type, String namespace, String prefix, Instant since)
      throws IOException, InterruptedException {
    List<Event> events = new ArrayList<>();
    String cursor = null;
    do {
      String query =
          "/audit?type="
              + type
              + "&namespace="
              + encode(namespace)
              + "&since="
              + encode(since.toString())
              + "&limit=1000"
              + (cursor == null ? "" : "&cursor=" + encode(cursor));
      JsonNode page = send(HttpRequest.newBuilder(uri(query)).GET());
      for (JsonNode item : page.path("items")) {
        String key = item.path("key").asText();
        if (key.startsWith(prefix)) {
          events.add(
              new Event(
                  key,
                  item.path("node").asText(),
                  item.path("latenessMs").asLong(),
                  Instant.parse(item.path("at").asText())));
        }
      }
      JsonNode next = page.path("next");
      cursor = next.isTextual() ? next.asText() : null;
    } while (cursor != null);
    return events;
  }

  private JsonNode send(HttpRequest.Builder request) throws IOException, InterruptedException {
    HttpRequest built =
        request
            .header("Authorization", authorization)
            .header("Accept", "application/json")
            .timeout(Duration.ofSeconds(60))
            .build();
    HttpResponse<String> answer = http.send(built, HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() >= 300) {
      throw new IllegalStateException(
          built.method()
              + " "
              + built.uri()
              + " answered "
              + answer.statusCode()
              + ": "
              + answer.body());
    }
    return JSON.readTree(answer.body());
  }

  private URI uri(String pathAndQuery) {
    return URI.create(api + pathAndQuery);
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** Nearest rank: the smallest value with at least {@code p} % of the values at or below it. */
  static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return -1;
    }
    int rank = (int) Math.ceil(p / 100 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
  }

  private static String first(List<String> keys) {
    return keys.size() <= 10
        ? String.join(", ", keys)
        : String.join(", ", keys.subList(0, 10)) + ", … (" + keys.size() + ")";
  }

  private static void sleepUntil(Instant when) throws InterruptedException {
    long millis = Duration.between(Instant.now(), when).toMillis();
    if (millis > 0) {
      Thread.sleep(millis);
    }
  }
}
