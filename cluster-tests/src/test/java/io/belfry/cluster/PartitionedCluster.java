package io.belfry.cluster;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;

/**
 * A cluster of real WildFly nodes that a test cuts apart with iptables ({@link Partition}); skipped
 * where iptables cannot run. It is FailoverClusterIT's H2 cluster, which the suite before left
 * running (ClusterNodes), with as many nodes as the class needs (started clean if none was left: a
 * suite run alone), and it is left to the next suite or stopped after the class's tests.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class PartitionedCluster {

  final ClusterNodes cluster;
  final PartitionChecks checks;
  private final boolean leaveRunning;

  PartitionedCluster(int size, boolean leaveRunning) {
    cluster = new ClusterNodes(size);
    checks = new PartitionChecks(cluster);
    this.leaveRunning = leaveRunning;
  }

  @BeforeAll
  void startCluster() {
    Assumptions.assumeTrue(
        Partition.available(),
        "the partition tests need root and iptables (apt-get install -y iptables); .ci/run"
            + " installs it");
    cluster.startCleanOrTakeOver();
  }

  @AfterAll
  void stopCluster() {
    if (leaveRunning) {
      cluster.leaveRunning();
    } else {
      cluster.close();
    }
  }
}
