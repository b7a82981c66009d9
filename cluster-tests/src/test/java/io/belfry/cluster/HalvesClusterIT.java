package io.belfry.cluster;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Four real WildFly nodes cut into two halves of two (iptables, as in {@link PartitionClusterIT}).
 * Half the stable members is not a majority: neither half may fire or take writes, so no occurrence
 * can fire on both sides; after the heal everything due during the cut fires once.
 */
class HalvesClusterIT extends PartitionedCluster {

  HalvesClusterIT() {
    super(4, true);
  }

  @Test
  void equalHalves_neitherFiresNorTakesWrites_everythingFiresOnceAfterTheHeal() throws Exception {
    checks.noSideHasAMajority(
        "{node1,node2} | {node3,node4}",
        2,
        partition -> partition.split(List.of(1, 2), List.of(3, 4)));
  }
}
