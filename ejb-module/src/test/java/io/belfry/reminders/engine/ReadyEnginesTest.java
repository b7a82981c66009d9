package io.belfry.reminders.engine;

import static io.belfry.reminders.engine.ClusterFiringTest.byKey;
import static io.belfry.reminders.engine.ClusterFiringTest.once;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member whose cache holds segments while its engine does not run (a joiner still booting, or a
 * node whose deployment stops): with the roster of ready engines, the first member whose engine
 * runs fires those segments, each reminder once, and hands them back once the engine announces
 * itself (docs/operations.md, "Joining a running cluster").
 */
class ReadyEnginesTest {

  private static final int REMINDERS = 600;

  @Test
  void joinerWithoutEngine_itsSegmentsFireOnTheFirstReadyMember_thenOnItOnceItAnnounces(
      @TempDir Path dir) {
    TestCluster cluster = new TestCluster(dir).withEngineRoster();
    try {
      cluster.startFirst(2);
      // the joiner's cache holds its share of the segments, its engine is not started
      cluster.startMember(2);
      cluster.awaitStableTopology(3);
      assertThat(
              cluster
                  .cache(2)
                  .getAdvancedCache()
                  .getDistributionManager()
                  .getCacheTopology()
                  .getLocalPrimarySegments())
          .as("segments the joiner is primary owner of")
          .isNotEmpty();

      String ns = "roster";
      Instant due = cluster.clock.now().plusSeconds(30);
      for (int i = 0; i < REMINDERS; i++) {
        cluster.engine(i % 2).set(once(ns, "a" + i, due));
      }
      cluster.tickAll();
      assertThat(cluster.engine(0).armedCount() + cluster.engine(1).armedCount())
          .as("armed on the members whose engines run")
          .isEqualTo(REMINDERS);
      cluster.clock.set(due.plusSeconds(1));
      cluster.tickUntil(() -> cluster.deliveredIn(ns).size() >= REMINDERS, "every first fire");
      cluster.tickAll();
      assertThat(byKey(cluster.deliveredIn(ns)))
          .hasSize(REMINDERS)
          .allSatisfy((k, n) -> assertThat(n).as(k).isOne());

      // the joiner's engine announces itself: its segments are its own again
      cluster.startEngine(2);
      Instant later = cluster.clock.now().plusSeconds(30);
      for (int i = 0; i < REMINDERS; i++) {
        cluster.engine(i % 3).set(once(ns, "b" + i, later));
      }
      cluster.tickUntil(
          () -> cluster.engine(2).armedCount() > 0 && cluster.armedTotal() == REMINDERS,
          "the second batch armed once across the members, the joiner's share on it");
      cluster.clock.set(later.plusSeconds(1));
      cluster.tickUntil(() -> cluster.deliveredIn(ns).size() >= 2 * REMINDERS, "every fire");
      cluster.tickAll();
      Map<String, Long> fired = byKey(cluster.deliveredIn(ns));
      assertThat(fired).hasSize(2 * REMINDERS).allSatisfy((k, n) -> assertThat(n).as(k).isOne());
      assertThat(
              cluster.deliveredIn(ns).stream()
                  .filter(d -> d.node() == 2 && d.fire().getKey().startsWith("b"))
                  .count())
          .as("second-batch fires delivered by the joiner")
          .isPositive();

      // its engine stops, its cache stays: withdrawn first, the others fire its segments
      cluster.stopEngine(2);
      Instant last = cluster.clock.now().plusSeconds(30);
      for (int i = 0; i < REMINDERS; i++) {
        cluster.engine(i % 2).set(once(ns, "c" + i, last));
      }
      cluster.tickUntil(
          () -> cluster.engine(0).armedCount() + cluster.engine(1).armedCount() == REMINDERS,
          "the third batch armed on the two members whose engines run");
      cluster.clock.set(last.plusSeconds(1));
      cluster.tickUntil(() -> cluster.deliveredIn(ns).size() >= 3 * REMINDERS, "every fire");
      cluster.tickAll();
      assertThat(byKey(cluster.deliveredIn(ns)))
          .hasSize(3 * REMINDERS)
          .allSatisfy((k, n) -> assertThat(n).as(k).isOne());
    } finally {
      cluster.close();
    }
  }
}
