package io.belfry.cluster;

import static io.belfry.cluster.Schedule.keys;
import static io.belfry.cluster.Schedule.owners;
import static io.belfry.cluster.Schedule.setDue;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.cluster.Api.AuditRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The first seconds of a three-node cluster started from {@code clean} (fresh file stores, fresh
 * audit database), with a {@code kill -9} in the same run; run by a suite on each database the
 * cluster can use ({@code FailoverClusterIT} on H2, {@code AtLeastOnceClusterIT} on PostgreSQL),
 * first thing after its clean start.
 *
 * <p>Two batches of 60 one-shot reminders are set round-robin through the three nodes at once: the
 * first due 3 s later, the second 12 s after the first. Once the first batch has fired, node 2 is
 * killed with {@code kill -9}, before the second batch is due, so the survivors fire its share of
 * the second. Then, from the audit: every reminder fired exactly once, the first batch on every
 * node, nothing by the killed node, and no {@code DELIVERY_FAILED} since the fresh start. Nodes
 * used to migrate the sink schema on their first fire and race for it, and the loser failed every
 * delivery (docs/operations.md, "Schemas at deployment start").
 *
 * <p>Node 2 stays down: the suite starts it again ({@code server-config/cluster start}).
 */
final class FreshClusterCheck {

  /** The node killed between the two batches; the audit is read through node 1. */
  static final int VICTIM = 2;

  private FreshClusterCheck() {}

  /**
   * @param started when the suite started the fresh cluster (before {@code clean}): no delivery may
   *     have failed since
   */
  static void firesOnEveryNodeAndAcrossAKill(ClusterNodes cluster, Instant started)
      throws Exception {
    Instant since = Instant.now();
    String run = "fresh-" + since.toEpochMilli();
    List<String> first = keys(run, 60);
    List<String> second = keys(run + "-after-kill", 60);
    Instant firstDue = since.plusSeconds(3);
    Instant secondDue = firstDue.plusSeconds(12);
    setDue(cluster, first, firstDue, 0, 3);
    setDue(cluster, second, secondDue, 0, 3);

    assertThat(Fires.await(cluster.api(1), since, first, firstDue.plusSeconds(60)))
        .as("the first batch fired")
        .hasSize(first.size());
    Map<String, String> owners = owners(cluster, second);
    assertThat(second)
        .as("node%d owns some of the second batch", VICTIM)
        .anyMatch(k -> owners.get(k).equals(cluster.name(VICTIM)));
    cluster.kill(VICTIM);
    assertThat(Instant.now()).as("killed before the second batch is due").isBefore(secondDue);

    List<String> all = new ArrayList<>(first);
    all.addAll(second);
    Fires.await(cluster.api(1), since, all, secondDue.plusSeconds(60));
    Thread.sleep(3_000); // for a late duplicate to show
    Map<String, List<AuditRecord>> fired = Fires.byKey(cluster.api(1), since, all);
    assertThat(fired.keySet()).as("every reminder fired").containsExactlyInAnyOrderElementsOf(all);
    Fires.assertOnceEach("fired other than once", fired);
    assertThat(first.stream().map(k -> fired.get(k).get(0).node()).distinct())
        .as("every node fired some of the first batch")
        .containsExactlyInAnyOrder(cluster.name(1), cluster.name(2), cluster.name(3));
    assertThat(second.stream().map(k -> fired.get(k).get(0).node()))
        .as("nothing of the second batch fired by the killed node")
        .doesNotContain(cluster.name(VICTIM));
    assertThat(cluster.api(1).audit("DELIVERY_FAILED", started))
        .as("failed deliveries since the fresh start, the kill included")
        .isEmpty();
  }
}
