package io.belfry.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.cluster.Api.AuditRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A real partition (iptables between the nodes' JGroups addresses) of a three-node cluster into a
 * majority {node2, node3} and a minority {node1}, then healed. The cache runs DENY_READ_WRITES: the
 * majority keeps firing and accepting changes, the minority refuses writes and fires nothing; after
 * the merge Belfry reconciles the replicas with its version rule.
 *
 * <p>The minority is node 1, usually the oldest member and so JGroups' coordinator: the majority
 * has to agree on a new one while it loses the old. It is also the cut that broke the majority
 * apart while node 1 had 127.0.0.1 ({@link Partition}); the test then fails on "node3 sees two
 * members".
 */
class PartitionClusterIT extends PartitionedCluster {

  private static final int MINORITY = 1;
  private static final int MAJORITY_A = 2;
  private static final int MAJORITY_B = 3;

  PartitionClusterIT() {
    super(3, false);
  }

  @Test
  void minorityIsolated_majorityFiresOnce_minorityRefusesWrites_replicasConvergeAfterHeal()
      throws Exception {
    // from a settled cluster: the other test may have healed a partition just before
    checks.awaitSettledBeforeACut();
    Instant since = Instant.now();
    String run = "partition-" + since.toEpochMilli();
    String cancelled = run + "-cancelled";
    String replaced = run + "-replaced";
    cluster.api(1).set(cancelled, "{\"delay\": \"PT1H\"}");
    cluster.api(1).set(replaced, "{\"delay\": \"PT1H\"}");
    Instant firstDue = since.plusSeconds(25);
    List<String> due = checks.setDue(run, firstDue, 30, 300);

    long replacedVersion;
    try (Partition partition = new Partition()) {
      partition.isolate(MINORITY, 3);
      Api minority = cluster.api(MINORITY);
      Api majorityA = cluster.api(MAJORITY_A);
      Api majorityB = cluster.api(MAJORITY_B);
      Await.until("node1 sees itself alone", () -> minority.members().size() == 1);
      Await.until("node2 sees two members", () -> majorityA.members().size() == 2);
      Await.until("node3 sees two members", () -> majorityB.members().size() == 2);
      Await.until(
          "node1 reports itself DOWN", () -> minority.health().equals("DOWN DEGRADED_MODE"));
      assertThat(majorityA.health()).isEqualTo("UP AVAILABLE");
      assertThat(majorityB.health()).isEqualTo("UP AVAILABLE");

      // The majority changes things at once, while the views may still be settling (the
      // engine waits that out); the minority cannot.
      // A 503 here is the documented "retry": the engine waited 3 s for the views to settle.
      Await.until(
          "the majority takes the cancel",
          () -> majorityB.request("DELETE", cancelled, null).status() != 503);
      Await.until(
          "the majority takes the replace",
          () -> majorityA.request("PUT", replaced, "{\"delay\": \"PT2H\"}").status() == 200);
      replacedVersion = majorityA.version(replaced);
      Api.Answer refused = new Api.Answer(503, "1", "urn:belfry:problem:cluster-unavailable");
      assertThat(minority.request("PUT", run + "-minority", "{\"delay\": \"PT1H\"}"))
          .as("a write to the minority is refused with 503, not acknowledged")
          .isEqualTo(refused);
      assertThat(minority.request("DELETE", replaced, null))
          .as("a cancel on the minority is refused with 503")
          .isEqualTo(refused);
      assertThat(minority.request("GET", replaced, null))
          .as("a read on the minority is refused with 503 (DENY_READ_WRITES)")
          .isEqualTo(refused);

      // every due reminder falls due during the partition
      Thread.sleep(
          Math.max(0, Duration.between(Instant.now(), firstDue.plusSeconds(15)).toMillis()));
      partition.heal();
    }
    Api healed = cluster.api(MINORITY);
    Await.until("node1 back in a view of three", () -> healed.members().size() == 3);
    Await.until(
        "node1's replica reconciled",
        () -> {
          long cancelledHeld = healed.version(cancelled);
          long replacedHeld = healed.version(replaced);
          if (cancelledHeld != -1 || replacedHeld != replacedVersion) {
            throw new IllegalStateException(
                String.format(
                    "node1 holds %s at version %d (want none) and %s at %d (want %d); health %s",
                    cancelled,
                    cancelledHeld,
                    replaced,
                    replacedHeld,
                    replacedVersion,
                    healed.health()));
          }
          return true;
        });

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
    Map<String, List<AuditRecord>> fired = checks.awaitFiredOnceEach(since, due);
    assertThat(fired.values().stream().flatMap(List::stream).map(AuditRecord::node))
        .as("the minority fired nothing")
        .doesNotContain(cluster.name(MINORITY));
    Fires.report(
        Fires.latenessRow(
            "partition {node2,node3} | {node1}: reminders due during it",
            due.stream().map(k -> fired.get(k).get(0)).toList()));
  }

  @Test
  void noMajorityAnywhere_nothingFiresAndNothingIsTaken_everythingFiresOnceAfterTheHeal()
      throws Exception {
    checks.noSideHasAMajority(
        "{node1} | {node2} | {node3}",
        1,
        partition -> {
          partition.isolate(1, 3);
          partition.isolate(2, 3);
        });
  }
}
