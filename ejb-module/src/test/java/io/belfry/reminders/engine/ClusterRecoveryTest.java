package io.belfry.reminders.engine;

import static io.belfry.reminders.engine.ClusterFiringTest.byKey;
import static io.belfry.reminders.engine.ClusterFiringTest.once;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.engine.TestCluster.Delivered;
import io.belfry.reminders.model.ReminderId;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Members leaving and the whole cluster restarting on its file stores. */
class ClusterRecoveryTest {

  /** With standby hints the survivors take the segments from memory, without from their stores. */
  @ParameterizedTest(name = "standby hints: {0}")
  @ValueSource(booleans = {true, false})
  void fire_ownerStopped_survivorFiresItsDueReminders(boolean standbyHints, @TempDir Path dir) {
    try (TestCluster cluster = new TestCluster(dir).withStandbyHints(standbyHints).start()) {
      String ns = "failover";
      Instant due = cluster.clock.now().plusSeconds(5);
      for (int i = 0; i < 60; i++) {
        cluster.engine(i % 3).set(once(ns, "r" + i, due));
      }
      Set<String> ownedByNode2 =
          IntStream.range(0, 60)
              .mapToObj(i -> "r" + i)
              .filter(
                  key ->
                      cluster
                          .cache(2)
                          .getAdvancedCache()
                          .getDistributionManager()
                          .getCacheTopology()
                          .getDistribution(ReminderId.of(ns, key).cacheKey())
                          .isPrimary())
              .collect(Collectors.toSet());
      assertThat(ownedByNode2).isNotEmpty();

      cluster.stopMember(2);
      cluster.awaitStableTopology(2);
      cluster.clock.advance(Duration.ofSeconds(6));
      cluster.tickUntil(() -> cluster.deliveredIn(ns).size() >= 60, "60 fires on survivors");
      cluster.tickAll();

      List<Delivered> fires = cluster.deliveredIn(ns);
      assertThat(byKey(fires)).hasSize(60).allSatisfy((k, n) -> assertThat(n).isOne());
      assertThat(fires)
          .filteredOn(d -> ownedByNode2.contains(d.fire().getKey()))
          .hasSize(ownedByNode2.size())
          .allSatisfy(d -> assertThat(d.node()).isIn(0, 1));
      long readFromStore =
          cluster.engine(0).segmentsGainedFromStore() + cluster.engine(1).segmentsGainedFromStore();
      if (standbyHints) {
        assertThat(readFromStore).as("gained segments read from a store").isZero();
      } else {
        assertThat(readFromStore).as("gained segments read from a store").isPositive();
      }
    }
  }

  @Test
  void start_wholeClusterRestartedOnItsStores_pendingFireAndFiredNeverRefire(@TempDir Path dir) {
    String ns = "restart";
    Instant soon;
    Instant later;
    long highestVersion;
    TestCluster cluster = new TestCluster(dir).start();
    try {
      soon = cluster.clock.now().plusSeconds(1);
      later = cluster.clock.now().plusSeconds(30);
      for (int i = 0; i < 30; i++) {
        cluster.engine(i % 3).set(once(ns, "soon" + i, soon));
        cluster.engine(i % 3).set(once(ns, "later" + i, later));
      }
      cluster.clock.advance(Duration.ofSeconds(2));
      cluster.tickUntil(() -> cluster.deliveredIn(ns).size() >= 30, "the first 30 fires");
      cluster.tickAll();
      assertThat(cluster.deliveredIn(ns))
          .allSatisfy(d -> assertThat(d.fire().getKey()).startsWith("soon"));
      highestVersion =
          IntStream.range(0, 3).mapToLong(n -> cluster.engine(n).lastVersion()).max().orElseThrow();
    } finally {
      cluster.stopAll();
    }
    // each member's engine left the order of its next recovery in its store's directory
    for (int n = 0; n < 3; n++) {
      assertThat(dir.resolve("node" + n + "/data/reminders/belfry-recovery-order")).isRegularFile();
    }

    // Same directories, same ports: every member preloads its own file store.
    cluster.delivered.clear();
    cluster.start();
    try {
      for (int n = 0; n < 3; n++) {
        assertThat(cluster.engine(n).lastVersion()).isGreaterThanOrEqualTo(highestVersion);
      }
      cluster.clock.set(later.plusSeconds(1));
      cluster.tickUntil(() -> cluster.deliveredIn(ns).size() >= 30, "the 30 later fires");
      cluster.tickAll();

      Map<String, Long> fired = byKey(cluster.deliveredIn(ns));
      assertThat(fired).hasSize(30).allSatisfy((k, n) -> assertThat(n).isOne());
      assertThat(fired.keySet()).allSatisfy(k -> assertThat(k).startsWith("later"));
    } finally {
      cluster.close();
    }
  }
}
