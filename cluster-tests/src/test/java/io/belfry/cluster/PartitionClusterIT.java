package io.belfry.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.cluster.Api.AuditRecord;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A real partition (iptables between the nodes' JGroups addresses) of a three-node cluster into a
 * majority {node1, node2} and a minority {node3}, then healed. The cache runs DENY_READ_WRITES: the
 * majority keeps firing and accepting changes, the minority refuses writes and fires nothing; after
 * the merge Belfry reconciles the replicas with its version rule.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PartitionClusterIT {

  private final ClusterNodes cluster = new ClusterNodes(3);

  @BeforeAll
  void startCluster() {
    Assumptions.assumeTrue(
        Partition.available(),
        "the partition test needs root and iptables (apt-get install -y iptables); .ci/run"
            + " installs it");
    cluster.startClean();
  }

  @AfterAll
  void stopCluster() {
    cluster.close();
  }

  @Test
  void minorityIsolated_majorityFiresOnce_minorityRefusesWrites_replicasConvergeAfterHeal()
      throws Exception {
    // from a settled cluster: the other test may have healed a partition just before
    awaitEveryNode(3, "UP AVAILABLE");
    Instant since = Instant.now();
    String run = "partition-" + since.toEpochMilli();
    String cancelled = run + "-cancelled";
    String replaced = run + "-replaced";
    cluster.api(1).set(cancelled, "{\"delay\": \"PT1H\"}");
    cluster.api(1).set(replaced, "{\"delay\": \"PT1H\"}");
    Instant firstDue = since.plusSeconds(25);
    List<String> due = setDue(run, firstDue, 30, 300);

    long replacedVersion;
    try (Partition partition = new Partition()) {
      partition.isolate(3, 3);
      await("node3 sees itself alone", () -> cluster.api(3).members().size() == 1);
      await("node1 sees two members", () -> cluster.api(1).members().size() == 2);
      await(
          "node3 reports itself DOWN", () -> cluster.api(3).health().equals("DOWN DEGRADED_MODE"));
      assertThat(cluster.api(1).health()).isEqualTo("UP AVAILABLE");

      // The majority changes things at once, while the views may still be settling (the
      // engine waits that out); the minority cannot.
      // A 503 here is the documented "retry": the engine waited 3 s for the views to settle.
      await(
          "the majority takes the cancel",
          () -> cluster.api(2).request("DELETE", cancelled, null).status() != 503);
      await(
          "the majority takes the replace",
          () -> cluster.api(1).request("PUT", replaced, "{\"delay\": \"PT2H\"}").status() == 200);
      replacedVersion = cluster.api(1).version(replaced);
      Api.Answer refused = new Api.Answer(503, "1", "urn:belfry:problem:cluster-unavailable");
      assertThat(cluster.api(3).request("PUT", run + "-minority", "{\"delay\": \"PT1H\"}"))
          .as("a write to the minority is refused with 503, not acknowledged")
          .isEqualTo(refused);
      assertThat(cluster.api(3).request("DELETE", replaced, null))
          .as("a cancel on the minority is refused with 503")
          .isEqualTo(refused);
      assertThat(cluster.api(3).request("GET", replaced, null))
          .as("a read on the minority is refused with 503 (DENY_READ_WRITES)")
          .isEqualTo(refused);

      // every due reminder falls due during the partition
      Thread.sleep(
          Math.max(0, Duration.between(Instant.now(), firstDue.plusSeconds(15)).toMillis()));
      partition.heal();
    }
    await("node3 back in a view of three", () -> cluster.api(3).members().size() == 3);
    await(
        "node3's replica reconciled",
        () ->
            cluster.api(3).version(cancelled) == -1
                && cluster.api(3).version(replaced) == replacedVersion);

    for (int node = 1; node <= 3; node++) {
      assertThat(cluster.api(node).version(cancelled))
          .as("node%d: cancelled stays cancelled", node)
          .isEqualTo(-1);
      assertThat(cluster.api(node).version(replaced))
          .as("node%d: the replacement", node)
          .isEqualTo(replacedVersion);
      assertThat(cluster.api(node).version(run + "-minority"))
          .as("node%d: the refused write", node)
          .isEqualTo(-1);
    }
    Map<String, List<AuditRecord>> fired = awaitFiredOnceEach(since, due);
    assertThat(fired.values().stream().flatMap(List::stream).map(AuditRecord::node))
        .as("the minority fired nothing")
        .doesNotContain(cluster.name(3));
    Fires.report(
        Fires.latenessRow(
            "partition {node1,node2} | {node3}: reminders due during it",
            due.stream().map(k -> fired.get(k).get(0)).toList()));
  }

  @Test
  void noMajorityAnywhere_nothingFiresAndNothingIsTaken_everythingFiresOnceAfterTheHeal()
      throws Exception {
    awaitEveryNode(3, "UP AVAILABLE");
    Instant since = Instant.now();
    String run = "no-majority-" + since.toEpochMilli();
    Instant firstDue = since.plusSeconds(20);
    List<String> due = setDue(run, firstDue, 12, 500);

    Instant healedAt;
    try (Partition partition = new Partition()) {
      partition.isolate(1, 3);
      partition.isolate(2, 3);
      awaitEveryNode(1, "DOWN DEGRADED_MODE");
      for (int node = 1; node <= 3; node++) {
        assertThat(
                cluster
                    .api(node)
                    .request("PUT", run + "-refused", "{\"delay\": \"PT1H\"}")
                    .status())
            .as("node%d refuses writes", node)
            .isEqualTo(503);
      }
      Thread.sleep(
          Math.max(0, Duration.between(Instant.now(), firstDue.plusSeconds(10)).toMillis()));
      assertThat(Fires.byKey(cluster.api(1), since, due))
          .as("no side has a majority, so none fires")
          .isEmpty();
      partition.heal();
      healedAt = Instant.now();
    }
    awaitEveryNode(3, "UP AVAILABLE");
    Instant available = Instant.now();
    Map<String, List<AuditRecord>> fired = awaitFiredOnceEach(since, due);
    assertThat(fired.values().stream().flatMap(List::stream).map(AuditRecord::at))
        .as("fired only after the heal")
        .allSatisfy(at -> assertThat(at).isAfter(healedAt));
    assertThat(cluster.api(1).version(run + "-refused"))
        .as("no refused write exists")
        .isEqualTo(-1);
    Fires.report(
        String.format(
            java.util.Locale.ROOT,
            "%n| no majority: {node1} | {node2} | {node3}, healed after %d s; available again"
                + " %d ms after the heal |%n",
            Duration.between(since, healedAt).toSeconds(),
            Duration.between(healedAt, available).toMillis()));
    Fires.report(
        Fires.latenessRow(
            "no majority: reminders due during it, fired after the heal",
            due.stream().map(k -> fired.get(k).get(0)).toList()));
  }

  /** {@code count} one-shot reminders, set round-robin on the nodes, due {@code spacing} apart. */
  private List<String> setDue(String run, Instant firstDue, int count, long spacingMillis)
      throws IOException {
    List<String> due = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String key = run + "-due-" + i;
      String fireAt = firstDue.plusMillis(spacingMillis * i).toString();
      cluster.api(1 + i % 3).set(key, "{\"fireAt\": \"" + fireAt + "\"}");
      due.add(key);
    }
    return due;
  }

  /** Until every node sees {@code members} members and reports {@code health}. */
  private void awaitEveryNode(int members, String health) throws Exception {
    for (int node = 1; node <= 3; node++) {
      int n = node;
      await(
          "node" + n + " in a view of " + members + ", " + health,
          () ->
              cluster.api(n).members().size() == members && cluster.api(n).health().equals(health));
    }
  }

  /** The FIRED records of {@code due}, once every one fired; asserts each fired exactly once. */
  private Map<String, List<AuditRecord>> awaitFiredOnceEach(Instant since, List<String> due)
      throws Exception {
    Fires.await(cluster.api(1), since, due, Instant.now().plusSeconds(30));
    Thread.sleep(3_000); // room for a duplicate to show up
    Map<String, List<AuditRecord>> fired = Fires.byKey(cluster.api(1), since, due);
    assertThat(fired.keySet())
        .as("every due reminder fired")
        .containsExactlyInAnyOrderElementsOf(due);
    assertThat(fired).allSatisfy((key, fires) -> assertThat(fires).as(key).hasSize(1));
    return fired;
  }

  private static void await(String what, Callable<Boolean> condition) throws Exception {
    Instant deadline = Instant.now().plusSeconds(90);
    while (true) {
      try {
        if (condition.call()) {
          return;
        }
      } catch (Exception e) {
        // a node answering errors while it changes views: ask again
      }
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(500);
    }
  }
}
