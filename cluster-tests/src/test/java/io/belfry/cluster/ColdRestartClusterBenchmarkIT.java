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
 * through the REST API, kill every node with {@code kill -9} while a few more fall due, start the
 * cluster with {@code server-config/cluster start} and measure, from the moment the script starts,
 * when the first node is healthy, when the first overdue reminder fires, when every node's engine
 * has armed what it owns (the {@code BELFRY-0001} lines of the nodes' logs) and when every node is
 * healthy. A benchmark, not part of the test run:
 *
 * <pre>
 * mvn -B -pl cluster-tests verify -Dbelfry.excludedGroups= \
 *     -Dit.test=ColdRestartClusterBenchmarkIT -Dbelfry.bench.pending=100000
 * </pre>
 */
@Tag("benchmark")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ColdRestartClusterBenchmarkIT {

  private static final Pattern ENGINE_STARTED =
      Pattern.compile(
          "^(\\d\\d:\\d\\d:\\d\\d,\\d\\d\\d) .*BELFRY-0001 Reminder engine started; (\\d+) reminders");

  private final ClusterNodes cluster = new ClusterNodes(3);
  private final int pending = Integer.getInteger("belfry.bench.pending", 100_000);
  private final int overdue = 100;

  @AfterAll
  void stopCluster() {
    cluster.close();
  }

  @Test
  void coldRestart_ofThreeNodes_timeToFirstFireAndToAllArmed() throws Exception {
    cluster.startClean();
    Instant since = Instant.now();
    String run = "cold-" + since.toEpochMilli();
    Instant loadStart = Instant.now();
    Parallel.forEach(
        pending,
        16,
        i -> cluster.api(1 + i % 3).set(run + "-pending-" + i, "{\"delay\": \"P1D\"}"));
    Duration load = Duration.between(loadStart, Instant.now());
    Instant due = Instant.now().plusSeconds(10);
    List<String> overdueKeys = new ArrayList<>();
    for (int i = 0; i < overdue; i++) {
      overdueKeys.add(run + "-overdue-" + i);
    }
    Parallel.forEach(
        overdue,
        i -> cluster.api(1 + i % 3).set(overdueKeys.get(i), "{\"fireAt\": \"" + due + "\"}"));
    assertThat(Instant.now()).as("every node killed before the overdue ones are due").isBefore(due);
    cluster.killAll();
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
    Map<String, List<AuditRecord>> fired =
        Fires.await(cluster.api(1), since, overdueKeys, Instant.now().plusSeconds(120));
    assertThat(fired).as("every overdue reminder fired").hasSize(overdue);
    assertThat(fired).allSatisfy((key, fires) -> assertThat(fires).as(key).hasSize(1));
    Instant firstFire =
        fired.values().stream().map(f -> f.get(0).at()).min(Instant::compareTo).orElseThrow();
    Instant lastFire =
        fired.values().stream().map(f -> f.get(0).at()).max(Instant::compareTo).orElseThrow();
    List<String> engines = new ArrayList<>();
    Instant allArmed = restart;
    for (int n = 1; n <= 3; n++) {
      Matcher started = engineStarted(n);
      Instant at = logInstant(started.group(1), restart);
      allArmed = at.isAfter(allArmed) ? at : allArmed;
      engines.add(
          String.format(
              Locale.ROOT,
              "node%d %s reminders at +%d ms",
              n,
              started.group(2),
              Duration.between(restart, at).toMillis()));
    }
    Fires.report(
        String.format(
            Locale.ROOT,
            "%n# Cold restart of 3 WildFly nodes, %s: %,d pending (loaded through REST in %d s)"
                + " and %d overdue, after kill -9 of every node%n%n"
                + "| from `cluster start` to | ms |%n|---|---|%n"
                + "| first node healthy | %d |%n| first overdue fire | %d |%n"
                + "| last overdue fire | %d |%n| every engine started (armed) | %d |%n"
                + "| every node healthy | %d |%n%nEngines: %s%n",
            restart,
            pending,
            load.toSeconds(),
            overdue,
            Duration.between(restart, firstHealthy).toMillis(),
            Duration.between(restart, firstFire).toMillis(),
            Duration.between(restart, lastFire).toMillis(),
            Duration.between(restart, allArmed).toMillis(),
            Duration.between(restart, healthy).toMillis(),
            String.join("; ", engines)));
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

  /** The last engine start in node {@code n}'s console log. */
  private static Matcher engineStarted(int n) throws IOException {
    Path log =
        Path.of(System.getenv("BELFRY_CLUSTER_DIR")).resolve("node" + n).resolve("console.log");
    Matcher last = null;
    for (String line : Files.readAllLines(log)) {
      Matcher m = ENGINE_STARTED.matcher(line.replaceAll("\u001B\\[[0-9;]*m", ""));
      if (m.find()) {
        last = m;
      }
    }
    assertThat(last).as("node%d's engine started", n).isNotNull();
    return last;
  }

  /** A log line's time of day (UTC, as the nodes log it), on the day of {@code near}. */
  private static Instant logInstant(String timeOfDay, Instant near) {
    LocalTime time = LocalTime.parse(timeOfDay.replace(',', '.'));
    return LocalDate.ofInstant(near, ZoneOffset.UTC).atTime(time).toInstant(ZoneOffset.UTC);
  }
}
