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
 * majority {node1, node2} and a minority {node3}, then healed. The cache runs DENY_READ_WRITES: the
 * majority keeps firing and accepting changes, the minority refuses writes and fires nothing; after
 * the merge Belfry reconciles the replicas with its version rule.
 */
class PartitionClusterIT extends PartitionedCluster {

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
      partition.isolate(3, 3);
      Await.until("node3 sees itself alone", () -> cluster.api(3).members().size() == 1);
      Await.until("node1 sees two members", () -> cluster.api(1).members().size() == 2);
      Await.until(
          "node3 reports itself DOWN", () -> cluster.api(3).health().equals("DOWN DEGRADED_MODE"));
      assertThat(cluster.api(1).health()).isEqualTo("UP AVAILABLE");

      // The majority changes things at once, while the views may still be settling (the
      // engine waits that out); the minority cannot.
      // A 503 here is the documented "retry": the engine waited 3 s for the views to settle.
      Await.until(
          "the majority takes the cancel",
          () -> cluster.api(2).request("DELETE", cancelled, null).status() != 503);
      Await.until(
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
    Await.until("node3 back in a view of three", () -> cluster.api(3).members().size() == 3);
    Await.until(
        "node3's replica reconciled",
        () -> {
          long cancelledHeld = cluster.api(3).version(cancelled);
          long replacedHeld = cluster.api(3).version(replaced);
          if (cancelledHeld != -1 || replacedHeld != replacedVersion) {
            throw new IllegalStateException(
                String.format(
                    "node3 holds %s at version %d (want none) and %s at %d (want %d); health %s",
                    cancelled,
                    cancelledHeld,
                    replaced,
                    replacedHeld,
                    replacedVersion,
                    cluster.api(3).health()));
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
        .doesNotContain(cluster.name(3));
    Fires.report(
        Fires.latenessRow(
            "partition {node1,node2} | {node3}: reminders due during it",
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
