package io.belfry.reminders.engine;

import static io.belfry.reminders.engine.ClusterFiringTest.byKey;
import static io.belfry.reminders.engine.ClusterFiringTest.once;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.engine.TestCluster.Delivered;
import io.belfry.reminders.model.ReminderId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Standby hints on three real members: each keeps a hint for every live reminder it does not own,
 * follows sets, replaces and cancels made on any member, hands them to the owned index when it
 * gains segments, and reads them again after it received state.
 */
class StandbyHandoverTest {

  private static final String NS = "standby";
  private static final int SET = 90;
  private static final int REPLACED = 30;
  private static final int CANCELLED = 10;
  private static final int LIVE = SET - CANCELLED;

  @Test
  void leave_survivorsTakeTheLeaversHintsFromStandby_eachFiresOnceAtItsLatestDueTime(
      @TempDir Path dir) {
    try (TestCluster cluster = new TestCluster(dir).withStandbyHints(true).start()) {
      Instant due = cluster.clock.now().plusSeconds(5);
      Instant later = due.plusSeconds(3);
      setReplaceAndCancel(cluster, due, later);
      for (int node = 0; node < 3; node++) {
        assertEveryLiveReminderHintedOnce(cluster, node);
      }
      int standbyBefore = cluster.engine(0).standbyCount();

      cluster.stopMember(2);
      cluster.awaitStableTopology(2);
      cluster.tickAll();
      for (int node = 0; node < 2; node++) {
        assertEveryLiveReminderHintedOnce(cluster, node);
      }
      assertThat(cluster.engine(0).standbyCount())
          .as("node0 took segments of node2 from its standby hints")
          .isLessThan(standbyBefore);

      cluster.clock.advance(Duration.ofSeconds(6));
      cluster.tickUntil(
          () -> cluster.deliveredIn(NS).size() >= LIVE - REPLACED, "the fires due first");
      cluster.tickAll();
      assertThat(cluster.deliveredIn(NS))
          .as("no replaced reminder fired at the due time it was replaced from")
          .noneMatch(d -> d.fire().getKey().startsWith("replaced"));

      cluster.clock.advance(Duration.ofSeconds(3));
      cluster.tickUntil(() -> cluster.deliveredIn(NS).size() >= LIVE, "every live reminder");
      cluster.tickAll();
      List<Delivered> fires = cluster.deliveredIn(NS);
      assertThat(byKey(fires)).hasSize(LIVE).allSatisfy((k, n) -> assertThat(n).isOne());
      assertThat(fires).noneMatch(d -> d.fire().getKey().startsWith("cancelled"));
    }
  }

  @Test
  void join_aJoinerReceivingStateForgetsItsStandbyHints_andReadsThemOnceItHoldsTheReplica(
      @TempDir Path dir) {
    try (TestCluster cluster =
        new TestCluster(dir).withStandbyHints(true).joinWithoutWaitingForState().start()) {
      cluster.stopMember(2);
      cluster.awaitStableTopology(2);
      deleteTree(dir.resolve("node2"));
      Instant due = cluster.clock.now().plusSeconds(60);
      setReplaceAndCancel(cluster, due, due.plusSeconds(3));

      cluster.startMember(2);
      cluster.startEngine(2);
      cluster.awaitStableTopology(3);
      // The fill runs in the periodic part of a run, once per scan interval.
      cluster.tickUntil(
          () -> {
            cluster.clock.advance(Duration.ofSeconds(1));
            return hinted(cluster, 2) == LIVE;
          },
          "node2 hints every live reminder");
      for (int node = 0; node < 3; node++) {
        assertEveryLiveReminderHintedOnce(cluster, node);
      }

      // A replace after the join reaches the joiner's standby hints through its change feed.
      cluster.engine(0).set(once(NS, "replaced-0", due.plusSeconds(10)));
      cluster.tickAll();
      assertEveryLiveReminderHintedOnce(cluster, 2);
    }
  }

  /**
   * With a roster of engines (as on WildFly), a joiner's engine holds back: its share stays armed
   * on the members that fire it until the joiner holds the hints of that share, and then moves to
   * it from memory, never read from its store while nobody fires it.
   */
  @Test
  void join_aJoinerHoldsBackUntilItHoldsItsSharesHints_thenTakesItFromMemory(@TempDir Path dir) {
    try (TestCluster cluster = new TestCluster(dir).withStandbyHints(true).withEngineRoster()) {
      cluster.startFirst(2);
      Instant due = cluster.clock.now().plusSeconds(60);
      setReplaceAndCancel(cluster, due, due.plusSeconds(3));

      cluster.startMember(2);
      cluster.awaitStableTopology(3);
      cluster.startEngine(2);
      assertThat(cluster.engine(2).armedCount())
          .as("armed on the joiner before it announced itself")
          .isZero();
      assertThat(cluster.engine(0).armedCount() + cluster.engine(1).armedCount())
          .as("armed on the members that fire the joiner's share meanwhile")
          .isEqualTo(LIVE);

      cluster.tickUntil(() -> !cluster.roster(2).holdingBack(), "node2 announces itself");
      cluster.tickUntil(
          () -> cluster.engine(2).armedCount() > 0 && cluster.armedTotal() == LIVE,
          "node2 fires its share, every live reminder armed once");
      assertThat(cluster.engine(2).segmentsGainedFromStore())
          .as("segments node2 read from its store before arming them")
          .isZero();

      cluster.clock.advance(Duration.ofSeconds(65));
      cluster.tickUntil(() -> cluster.deliveredIn(NS).size() >= LIVE, "every live reminder");
      cluster.tickAll();
      List<Delivered> fires = cluster.deliveredIn(NS);
      assertThat(byKey(fires)).hasSize(LIVE).allSatisfy((k, n) -> assertThat(n).isOne());
      assertThat(fires).as("fires delivered by node2").anyMatch(d -> d.node() == 2);
    }
  }

  /**
   * {@value #SET} reminders due at {@code due}, set through every member in turn; the first {@value
   * #REPLACED} replaced to {@code later}, the next {@value #CANCELLED} cancelled.
   */
  private static void setReplaceAndCancel(TestCluster cluster, Instant due, Instant later) {
    int via = 0;
    for (int i = 0; i < SET; i++) {
      String key =
          i < REPLACED ? "replaced-" + i : i < REPLACED + CANCELLED ? "cancelled-" + i : "r" + i;
      while (!cluster.isUp(via % 3)) {
        via++;
      }
      cluster.engine(via++ % 3).set(once(NS, key, due));
    }
    for (int i = 0; i < REPLACED; i++) {
      cluster.engine(0).set(once(NS, "replaced-" + i, later));
    }
    for (int i = REPLACED; i < REPLACED + CANCELLED; i++) {
      cluster.engine(1).cancel(ReminderId.of(NS, "cancelled-" + i));
    }
    cluster.tickAll();
  }

  /**
   * Owned hints plus standby hints: one per live reminder, on a member that covers every segment.
   */
  private static void assertEveryLiveReminderHintedOnce(TestCluster cluster, int node) {
    assertThat(hinted(cluster, node)).as("node%d: armed + standby", node).isEqualTo(LIVE);
  }

  private static int hinted(TestCluster cluster, int node) {
    return cluster.engine(node).armedCount() + cluster.engine(node).standbyCount();
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
