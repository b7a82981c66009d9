package io.belfry.cluster;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Four real WildFly nodes cut into two halves of two (iptables, as in {@link PartitionClusterIT}).
 * Half the stable members is not a majority: neither half may fire or take writes, so no occurrence
 * can fire on both sides; after the heal everything due during the cut fires once.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HalvesClusterIT {

  private final ClusterNodes cluster = new ClusterNodes(4);
  private final PartitionChecks checks = new PartitionChecks(cluster);

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
  void equalHalves_neitherFiresNorTakesWrites_everythingFiresOnceAfterTheHeal() throws Exception {
    checks.noSideHasAMajority(
        "{node1,node2} | {node3,node4}",
        2,
        partition -> partition.split(List.of(1, 2), List.of(3, 4)));
  }
}
