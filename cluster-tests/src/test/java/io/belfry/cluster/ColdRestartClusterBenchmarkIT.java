package io.belfry.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.cluster.Api.AuditRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Cold restart of three WildFly nodes holding many pending reminders (issue 7's figure): load them
 * through the REST API's batch set, stop every node while a few more fall due, start the cluster
 * with {@code server-config/cluster start} and measure, from the moment the script starts: when the
 * first node's server has booted and its engine has started (the {@code WFLYSRV0025} and {@code
 * BELFRY-0001} lines of its log), when the first and the last overdue reminder fire, when each
 * node's recovery has armed what it owns ({@code BELFRY-0340}) and when every node is healthy. One
 * load serves each way of stopping in {@code -Dbelfry.bench.stop} in turn: {@code kill} (every node
 * {@code kill -9}: the file stores rebuild their indexes) and {@code graceful} (every node
 * stopped), both by default. A benchmark, not part of the test run; a million needs bigger heaps
 * and more patience:
 *
 * <pre>
 * BELFRY_NODE_HEAP=2g BELFRY_START_TIMEOUT=3600 mvn -B -pl cluster-tests verify \
 *     -Dbelfry.excludedGroups= -Dit.test=ColdRestartClusterBenchmarkIT \
 *     -Dbelfry.bench.pending=1000000 -Dbelfry.cluster.commandTimeoutMinutes=60
 * </pre>
 */
@Tag("benchmark")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ColdRestartClusterBenchmarkIT {

  private static final String TIME = "^(\\d\\d:\\d\\d:\\d\\d,\\d\\d\\d) ";
  private static final Pattern BOOTED = Pattern.compile(TIME + ".*WFLYSRV0025");
  private static final Pattern ENGINE_STARTED = Pattern.compile(TIME + ".*BELFRY-0001 ");
  private static final Pattern RECOVERED =
      Pattern.compile(TIME + ".*BELFRY-0340 Recovery done in (\\d+) ms: (\\d+) reminders armed");

  /** Reminders per batch set request: the API's maximum. */
  private static final int BATCH = 1000;

  /**
   * Entries each node keeps in memory: the product's default (no bound) unless {@code
   * -Dbelfry.bench.memoryEntries} says otherwise. Not failsafe's 200, which the suites run with so
   * that their joins and failovers read from disk: until 2026-11-29 this benchmark inherited it, so
   * its restarts preloaded 200 entries and recovery read the million from the file store.
   */
  private final String memoryEntries =
      System.getProperty("belfry.bench.memoryEntries", "9223372036854775807");

  private final ClusterNodes cluster =
      new ClusterNodes(3).withNodeOptions("-Dbelfry.cache.memory-entries=" + memoryEntries);
  private final int pending = Integer.getInteger("belfry.bench.pending", 100_000);
  private final List<String> stops =
      List.of(System.getProperty("belfry.bench.stop", "kill,graceful").split(","));
  private final int overdue = 100;

  @AfterAll
  void stopCluster() {
    cluster.close();
  }

  /**
   * Keep the store an earlier run loaded ({@code -Dbelfry.bench.reuse=true}): start the nodes that
   * are not running and go straight to the restarts, so that a change to the engine or the script
   * can be measured again on a million reminders without another half hour of loading.
   */
  private final boolean reuse = Boolean.getBoolean("belfry.bench.reuse");

  @Test
  void coldRestart_ofThreeNodes_timeToFirstFireAndToAllArmed() throws Exception {
    String run = "cold-" + Instant.now().toEpochMilli();
    if (reuse) {
      cluster.startAll();
      restarts(run, "the store of an earlier run");
      return;
    }
    cluster.startClean();
    Instant loadStart = Instant.now();
    int batches = (pending + BATCH - 1) / BATCH;
    Parallel.forEach(
        batches,
        // each set waits for its replication more than it works: several requests per node
        9,
        b -> {
          List<String> items = new ArrayList<>();
          for (int i = b * BATCH; i < Math.min(pending, (b + 1) * BATCH); i++) {
            items.add("{\"key\": \"" + run + "-pending-" + i + "\", \"delay\": \"P1D\"}");
          }
          cluster.api(1 + b % 3).setAll(items);
        });
    Duration load = Duration.between(loadStart, Instant.now());
    String loaded =
        String.format(
            Locale.ROOT,
            "%,d pending (loaded through the batch set in %d s, %,.0f/s)",
            pending,
            load.toSeconds(),
            pending * 1000.0 / Math.max(1, load.toMillis()));
    restarts(run, loaded);
  }

  /** Each way of stopping in turn, on the same store: only the stop differs. */
  private void restarts(String run, String loaded) throws Exception {
    for (String stop : stops) {
      switch (stop) {
        case "kill" -> restart(run + "-kill", false, loaded);
        case "graceful" -> restart(run + "-graceful", true, loaded);
        default -> throw new IllegalArgumentException("belfry.bench.stop: kill or graceful");
      }
    }
  }

  /**
   * Sets {@link #overdue} reminders due soon, stops every node before they fall due, starts the
   * cluster after they did and reports the times.
   */
  private void restart(String run, boolean graceful, String loaded) throws Exception {
    Instant since = Instant.now();
    // a graceful stop of three nodes holding a big store takes longer than a kill; and the sets
    // themselves, right after nodes joined, took over 10 s once (2026-11-29)
    Instant due = Instant.now().plusSeconds(graceful ? 120 : 45);
    List<String> overdueKeys = new ArrayList<>();
    for (int i = 0; i < overdue; i++) {
      overdueKeys.add(run + "-overdue-" + i);
    }
    Parallel.forEach(
        overdue,
        i -> cluster.api(1 + i % 3).set(overdueKeys.get(i), "{\"fireAt\": \"" + due + "\"}"));
    Instant stopStart = Instant.now();
    if (graceful) {
      cluster.close();
    } else {
      cluster.killAll();
    }
    Duration stopping = Duration.between(stopStart, Instant.now());
    assertThat(Instant.now())
        .as("every node stopped before the overdue ones are due")
        .isBefore(due);
    Thread.sleep(Math.max(0, Duration.between(Instant.now(), due.plusSeconds(2)).toMillis()));

    Instant restart = Instant.now();
    CompletableFuture<Instant> allHealthy =
        CompletableFuture.supplyAsync(
            () -> {
              cluster.startAll();
              return Instant.now();
            });
    Instant firstHealthy = awaitFirstHealthy(allHealthy);
    Instant healthy = allHealthy.get();
    for (int n = 1; n <= 3; n++) {
      // a joiner's recovery goes on after it is healthy; its end is in the report
      Api node = cluster.api(n);
      Await.until("node" + n + " recovered", node::recovered);
    }
    Map<String, List<AuditRecord>> fired =
        Fires.await(cluster.api(1), since, overdueKeys, Instant.now().plusSeconds(120));
    assertThat(fired).as("every overdue reminder fired").hasSize(overdue);
    Fires.assertOnceEach("fired other than once", fired);
    Instant firstFire =
        fired.values().stream().map(f -> f.get(0).at()).min(Instant::compareTo).orElseThrow();
    Instant lastFire =
        fired.values().stream().map(f -> f.get(0).at()).max(Instant::compareTo).orElseThrow();
    List<String> nodes = new ArrayList<>();
    Instant firstBooted = null;
    Instant firstEngine = null;
    Instant firstRecovered = null;
    Instant allRecovered = restart;
    for (int n = 1; n <= 3; n++) {
      Instant booted = logInstant(lastMatch(n, BOOTED).group(1), restart);
      Instant engine = logInstant(lastMatch(n, ENGINE_STARTED).group(1), restart);
      Matcher recovery = lastMatch(n, RECOVERED);
      Instant recovered = logInstant(recovery.group(1), restart);
      firstBooted = earliest(firstBooted, booted);
      firstEngine = earliest(firstEngine, engine);
      firstRecovered = earliest(firstRecovered, recovered);
      allRecovered = recovered.isAfter(allRecovered) ? recovered : allRecovered;
      nodes.add(
          String.format(
              Locale.ROOT,
              "node%d: booted +%d ms, engine started +%d ms, recovery done +%d ms (%s ms, %s"
                  + " armed)",
              n,
              Duration.between(restart, booted).toMillis(),
              Duration.between(restart, engine).toMillis(),
              Duration.between(restart, recovered).toMillis(),
              recovery.group(2),
              recovery.group(3)));
    }
    Fires.report(
        String.format(
            Locale.ROOT,
            "%n# Cold restart of 3 WildFly nodes, %s: %s and %d overdue, after %s of every node"
                + " (%d ms to stop them); memory bound %s entries per node%n%n"
                + "| from `cluster start` to | ms |%n|---|---|%n"
                + "| first node's server booted (WFLYSRV0025) | %d |%n"
                + "| first engine started (BELFRY-0001) | %d |%n"
                + "| first overdue fire | %d |%n"
                + "| last overdue fire | %d |%n"
                + "| first node's recovery done: every reminder armed there | %d |%n"
                + "| first node healthy | %d |%n"
                + "| every node's recovery done | %d |%n"
                + "| every node healthy | %d |%n%n"
                + "From the first engine's start: first overdue fire %d ms, last %d ms, recovery"
                + " done %d ms.%n%nNodes: %s%n",
            restart,
            loaded,
            overdue,
            graceful ? "a graceful stop" : "kill -9",
            stopping.toMillis(),
            memoryEntries,
            Duration.between(restart, firstBooted).toMillis(),
            Duration.between(restart, firstEngine).toMillis(),
            Duration.between(restart, firstFire).toMillis(),
            Duration.between(restart, lastFire).toMillis(),
            Duration.between(restart, firstRecovered).toMillis(),
            Duration.between(restart, firstHealthy).toMillis(),
            Duration.between(restart, allRecovered).toMillis(),
            Duration.between(restart, healthy).toMillis(),
            Duration.between(firstEngine, firstFire).toMillis(),
            Duration.between(firstEngine, lastFire).toMillis(),
            Duration.between(firstEngine, firstRecovered).toMillis(),
            String.join("; ", nodes)));
  }

  private static Instant earliest(Instant a, Instant b) {
    return a == null || b.isBefore(a) ? b : a;
  }

  private Instant awaitFirstHealthy(CompletableFuture<Instant> allHealthy) throws Exception {
    while (true) {
      for (int n = 1; n <= 3; n++) {
        try {
          cluster.api(n).health();
          return Instant.now();
        } catch (IOException e) {
          // not up yet
        }
      }
      if (allHealthy.isDone()) {
        return allHealthy.get();
      }
      Thread.sleep(100);
    }
  }

  /** The last line of node {@code n}'s console log that {@code pattern} finds. */
  private static Matcher lastMatch(int n, Pattern pattern) throws IOException {
    Path log =
        Path.of(System.getenv("BELFRY_CLUSTER_DIR")).resolve("node" + n).resolve("console.log");
    Matcher last = null;
    for (String line : Files.readAllLines(log)) {
      Matcher m = pattern.matcher(line.replaceAll("\u001B\\[[0-9;]*m", ""));
      if (m.find()) {
        last = m;
      }
    }
    assertThat(last).as("node%d's log has %s", n, pattern).isNotNull();
    return last;
  }

  /** A log line's time of day (UTC, as the nodes log it), on the day of {@code near}. */
  private static Instant logInstant(String timeOfDay, Instant near) {
    LocalTime time = LocalTime.parse(timeOfDay.replace(',', '.'));
    return LocalDate.ofInstant(near, ZoneOffset.UTC).atTime(time).toInstant(ZoneOffset.UTC);
  }
}
