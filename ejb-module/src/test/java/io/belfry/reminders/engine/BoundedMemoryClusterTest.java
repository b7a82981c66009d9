package io.belfry.reminders.engine;

import static io.belfry.reminders.engine.ClusterFiringTest.byKey;
import static io.belfry.reminders.engine.ClusterFiringTest.once;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.placement.CacheOwnership;
import io.belfry.reminders.store.InfinispanReminderStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three members whose caches keep only {@value #IN_MEMORY} entries in memory and the rest in their
 * file stores only (docs/configuration.md, "Entries kept in memory"): everything the engine does
 * with a reminder it must do just as well with one that is on disk only.
 */
class BoundedMemoryClusterTest {

  private static final int IN_MEMORY = 10;
  private static final int REMINDERS = 120;

  @Test
  void set_moreThanMemoryHolds_everyReminderReadsFiresOnceAndMemoryStaysBounded(@TempDir Path dir) {
    try (TestCluster cluster = new TestCluster(dir, IN_MEMORY).start()) {
      String ns = "bounded";
      Instant due = cluster.clock.now().plusSeconds(10);
      for (int i = 0; i < REMINDERS; i++) {
        cluster.engine(i % 3).set(once(ns, "r" + i, due));
      }
      for (int node = 0; node < 3; node++) {
        // the cache evicts in the background (Caffeine's maintenance), soon after a write
        var memory = cluster.cache(node).getAdvancedCache().getDataContainer();
        TestCluster.await(() -> memory.size() <= IN_MEMORY, "node " + node + "'s memory bounded");
      }
      // every one reads back, from any member, though most are on disk only
      for (int i = 0; i < REMINDERS; i++) {
        assertThat(cluster.engine((i + 1) % 3).get(ReminderId.of(ns, "r" + i)))
            .as("r%d", i)
            .isPresent();
      }
      assertThat(cluster.engine(2).keyIndex().count(ns, ReminderState.PENDING))
          .isEqualTo(REMINDERS);

      cluster.clock.advance(Duration.ofSeconds(11));
      cluster.tickUntil(() -> cluster.deliveredIn(ns).size() >= REMINDERS, "every fire");
      cluster.tickAll();

      Map<String, Long> fired = byKey(cluster.deliveredIn(ns));
      assertThat(fired).hasSize(REMINDERS).allSatisfy((k, n) -> assertThat(n).isOne());
      for (int i = 0; i < REMINDERS; i++) {
        assertThat(cluster.engine(0).get(ReminderId.of(ns, "r" + i)).orElseThrow().state())
            .as("r%d after its fire", i)
            .isEqualTo(ReminderState.FIRED);
      }
    }
  }

  @Test
  void set_boundAboveAnyStore_memoryHoldsEveryEntryAndEachFiresOnce(@TempDir Path dir) {
    // the server's default: a bound no store reaches, so memory may skip the store's lookups
    try (TestCluster cluster = new TestCluster(dir, InfinispanReminderStore.UNBOUNDED).start()) {
      String ns = "unbounded";
      Instant due = cluster.clock.now().plusSeconds(10);
      for (int i = 0; i < REMINDERS; i++) {
        cluster.engine(i % 3).set(once(ns, "r" + i, due));
      }
      for (int node = 0; node < 3; node++) {
        assertThat(cluster.cache(node).getAdvancedCache().getDataContainer().size())
            .as("entries in node %d's memory", node)
            .isEqualTo(REMINDERS);
      }
      cluster.clock.advance(Duration.ofSeconds(11));
      assertEveryOneFiresOnce(cluster, ns);
    }
  }

  @Test
  void setAgainAndCancel_entriesOnDiskOnly_takeTheNewVersion(@TempDir Path dir) {
    try (TestCluster cluster = new TestCluster(dir, IN_MEMORY).start()) {
      String ns = "rewrite";
      Instant first = cluster.clock.now().plusSeconds(10);
      Instant moved = cluster.clock.now().plusSeconds(20);
      for (int i = 0; i < REMINDERS; i++) {
        cluster.engine(i % 3).set(once(ns, "r" + i, first));
      }
      // r0.. were written first, so they are the ones memory let go of
      for (int i = 0; i < 20; i++) {
        assertThat(cluster.engine((i + 2) % 3).set(once(ns, "r" + i, moved)).created())
            .as("r%d set again is a replacement", i)
            .isFalse();
      }
      for (int i = 20; i < 40; i++) {
        cluster.engine(i % 3).cancel(ReminderId.of(ns, "r" + i));
      }

      cluster.clock.advance(Duration.ofSeconds(11));
      cluster.tickUntil(() -> cluster.deliveredIn(ns).size() >= REMINDERS - 40, "the first due");
      cluster.tickAll();
      assertThat(byKey(cluster.deliveredIn(ns)).keySet())
          .hasSize(REMINDERS - 40)
          .allSatisfy(k -> assertThat(Integer.parseInt(k.substring(1))).isGreaterThanOrEqualTo(40));

      cluster.clock.advance(Duration.ofSeconds(10));
      cluster.tickUntil(() -> cluster.deliveredIn(ns).size() >= REMINDERS - 20, "the moved ones");
      cluster.tickAll();
      Map<String, Long> fired = byKey(cluster.deliveredIn(ns));
      assertThat(fired).hasSize(REMINDERS - 20).allSatisfy((k, n) -> assertThat(n).isOne());
    }
  }

  @Test
  void start_wholeClusterRestarted_armsFromDiskAndFiresEachOnce(@TempDir Path dir) {
    String ns = "restart";
    TestCluster cluster = new TestCluster(dir, IN_MEMORY).start();
    Instant due;
    try {
      due = cluster.clock.now().plusSeconds(30);
      for (int i = 0; i < REMINDERS; i++) {
        cluster.engine(i % 3).set(once(ns, "r" + i, due));
      }
    } finally {
      cluster.stopAll();
    }

    // the stores are preloaded up to the bound only: the rest must be armed from disk
    cluster.start();
    try {
      int armed = 0;
      for (int node = 0; node < 3; node++) {
        armed += cluster.engine(node).armedCount();
      }
      assertThat(armed).as("armed across the members").isEqualTo(REMINDERS);
      for (int node = 0; node < 3; node++) {
        assertKeyIndexKeepsTheHintsKeys(cluster, node);
      }
      cluster.clock.set(due.plusSeconds(1));
      assertEveryOneFiresOnce(cluster, ns);
    } finally {
      cluster.close();
    }
  }

  @Test
  void join_theKeyIndexReadsFirst_theStandbyHintsReadLaterKeepItsKeys(@TempDir Path dir) {
    String ns = "joined";
    try (TestCluster cluster =
        new TestCluster(dir, IN_MEMORY).joinWithoutWaitingForState().start()) {
      cluster.stopMember(2);
      cluster.awaitStableTopology(2);
      Instant due = cluster.clock.now().plusSeconds(600);
      for (int i = 0; i < REMINDERS; i++) {
        cluster.engine(i % 2).set(once(ns, "r" + i, due));
      }
      cluster.startMember(2);
      cluster.startEngine(2);
      cluster.awaitStableTopology(3);
      // the joiner's key index reads the replica before its standby hints are read from the store
      assertThat(cluster.engine(2).keyIndex().count(ns, ReminderState.PENDING))
          .isEqualTo(REMINDERS);
      cluster.tickUntil(
          () -> {
            cluster.clock.advance(Duration.ofSeconds(1));
            return cluster.engine(2).armedCount() + cluster.engine(2).standbyCount() == REMINDERS;
          },
          "node 2 hints every reminder");
      assertKeyIndexKeepsTheHintsKeys(cluster, 2);
    }
  }

  /**
   * Every key of {@code node}'s key index is the very String its scheduler's hint keeps (owned or
   * standby): recovery and the index's pass each read the file store, which decodes a new String
   * per read, so without sharing each key would be held twice (docs/performance/scale.md).
   */
  private static void assertKeyIndexKeepsTheHintsKeys(TestCluster cluster, int node) {
    ReminderEngine engine = cluster.engine(node);
    CacheOwnership ownership = new CacheOwnership(cluster.cache(node));
    Set<String> indexed = engine.keyIndex().from(null, true).keySet();
    assertThat(indexed).as("node %d's key index", node).hasSize(REMINDERS);
    for (String key : indexed) {
      String[] copy = {new String(key)};
      int shared = engine.scheduler().shareHeldKeys(copy, new int[] {ownership.segmentOf(key)}, 1);
      assertThat(shared).as("node %d holds a hint for %s", node, key).isOne();
      assertThat(copy[0])
          .as("node %d's hint and index keep one String for %s", node, key)
          .isSameAs(key);
    }
  }

  /**
   * Ticks until each of the {@value #REMINDERS} reminders of {@code ns} fired, then checks once.
   */
  private static void assertEveryOneFiresOnce(TestCluster cluster, String ns) {
    cluster.tickUntil(() -> cluster.deliveredIn(ns).size() >= REMINDERS, "every fire");
    cluster.tickAll();
    assertThat(byKey(cluster.deliveredIn(ns)))
        .hasSize(REMINDERS)
        .allSatisfy((k, n) -> assertThat(n).isOne());
  }
}
