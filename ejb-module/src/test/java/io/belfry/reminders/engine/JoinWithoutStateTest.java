package io.belfry.reminders.engine;

import static io.belfry.reminders.engine.ClusterFiringTest.byKey;
import static io.belfry.reminders.engine.ClusterFiringTest.once;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.model.ReminderId;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member that joins a running cluster without waiting for its state, as Belfry's server
 * configuration has it (docs/operations.md, "Joining a running cluster"): its engine starts while
 * the state is still coming, it serves every reminder at once, and it fires its share, each once,
 * after it has received it.
 */
class JoinWithoutStateTest {

  private static final int REMINDERS = 2_000;

  @Test
  void join_engineStartedBeforeTheState_servesAtOnceAndFiresItsShareOnce(@TempDir Path dir) {
    TestCluster cluster = new TestCluster(dir).joinWithoutWaitingForState();
    try {
      cluster.startFirst(2);
      String ns = "join";
      Instant due = cluster.clock.now().plusSeconds(30);
      for (int i = 0; i < REMINDERS; i++) {
        cluster.engine(i % 2).set(once(ns, "r" + i, due));
      }

      cluster.startMember(2);
      cluster.startEngine(2);
      // served at once: what the joiner has not received yet is read from the members that hold it
      for (int i = 0; i < REMINDERS; i++) {
        assertThat(cluster.engine(2).get(ReminderId.of(ns, "r" + i))).as("r%d", i).isPresent();
      }
      cluster.awaitStableTopology(3);
      cluster.tickUntil(() -> cluster.engine(2).armedCount() > 0, "the joiner's share armed");
      int armed = 0;
      for (int node = 0; node < 3; node++) {
        armed += cluster.engine(node).armedCount();
      }
      assertThat(armed).as("armed across the members").isEqualTo(REMINDERS);

      cluster.clock.set(due.plusSeconds(1));
      cluster.tickUntil(() -> cluster.deliveredIn(ns).size() >= REMINDERS, "every fire");
      cluster.tickAll();
      Map<String, Long> fired = byKey(cluster.deliveredIn(ns));
      assertThat(fired).hasSize(REMINDERS).allSatisfy((k, n) -> assertThat(n).isOne());
      assertThat(cluster.deliveredIn(ns).stream().filter(d -> d.node() == 2).count())
          .as("fires delivered by the joiner")
          .isPositive();
    } finally {
      cluster.close();
    }
  }
}
