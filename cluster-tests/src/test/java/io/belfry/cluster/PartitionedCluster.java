package io.belfry.cluster;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;

/**
 * A cluster of real WildFly nodes that a test cuts apart with iptables ({@link Partition}): started
 * clean before the class's tests, stopped after them; skipped where iptables cannot run.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class PartitionedCluster {

  final ClusterNodes cluster;
  final PartitionChecks checks;

  PartitionedCluster(int size) {
    cluster = new ClusterNodes(size);
    checks = new PartitionChecks(cluster);
  }

  @BeforeAll
  void startCluster() {
    Assumptions.assumeTrue(
        Partition.available(),
        "the partition tests need root and iptables (apt-get install -y iptables); .ci/run"
            + " installs it");
    cluster.startClean();
  }

  @AfterAll
  void stopCluster() {
    cluster.close();
  }
}
