package io.belfry.reminders.engine;

import static io.belfry.reminders.engine.ClusterFiringTest.byKey;
import static io.belfry.reminders.engine.ClusterFiringTest.once;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.engine.TestCluster.Delivered;
import io.belfry.reminders.fire.AtLeastOnceSettings;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.placement.CacheOwnership;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** At-least-once delivery on three real replicated members: a holder that dies mid-delivery. */
class ClusterAtLeastOnceTest {

  @Test
  void holderDiesMidDelivery_survivorRedeliversOnceWithSameFence(@TempDir Path dir) {
    try (TestCluster cluster = new TestCluster(dir).start()) {
      String ns = "at-least-once";
      Instant due = cluster.clock.now().plusSeconds(5);
      Map<String, Long> fences = new HashMap<>();
      for (int i = 0; i < 60; i++) {
        ReminderSpec atLeastOnce = once(ns, "r" + i, due).withDelivery(DeliveryMode.AT_LEAST_ONCE);
        fences.put("r" + i, cluster.engine(i % 3).set(atLeastOnce).record().version());
      }
      Set<String> heldByNode2 =
          fences.keySet().stream()
              .filter(key -> isPrimaryOn(cluster, 2, ReminderId.of(ns, key)))
              .collect(Collectors.toSet());
      assertThat(heldByNode2).isNotEmpty();

      // Node 2 leases what it owns, then "dies" before any of its deliveries runs.
      cluster.hung.add(2);
      cluster.clock.advance(Duration.ofSeconds(6));
      cluster.tickUntil(
          () -> cluster.deliveredIn(ns).size() >= 60 - heldByNode2.size(),
          "the fires of the surviving owners");
      cluster.tickAll();
      assertThat(cluster.deliveredIn(ns))
          .extracting(d -> d.fire().getKey())
          .doesNotContainAnyElementsOf(heldByNode2);
      cluster.stopMember(2);
      cluster.awaitStableTopology(2);

      // The new owners find node 2's leases and wait for them to expire.
      cluster.tickAll();
      assertThat(cluster.deliveredIn(ns)).hasSize(60 - heldByNode2.size());
      cluster.clock.advance(AtLeastOnceSettings.DEFAULT_LEASE);
      cluster.tickUntil(() -> cluster.deliveredIn(ns).size() >= 60, "the redeliveries");
      cluster.clock.advance(AtLeastOnceSettings.DEFAULT_LEASE.multipliedBy(2));
      cluster.tickAll();

      List<Delivered> fires = cluster.deliveredIn(ns);
      assertThat(byKey(fires)).hasSize(60).allSatisfy((k, n) -> assertThat(n).isOne());
      assertThat(fires)
          .allSatisfy(
              d -> {
                String key = d.fire().getKey();
                assertThat(d.fire().getFence()).isEqualTo(fences.get(key));
                assertThat(d.fire().getAttempt()).isEqualTo(heldByNode2.contains(key) ? 2 : 1);
                assertThat(d.node()).isIn(0, 1);
              });
    }
  }

  private static boolean isPrimaryOn(TestCluster cluster, int node, ReminderId id) {
    return new CacheOwnership(cluster.cache(node)).isPrimaryOwner(id.cacheKey());
  }
}
