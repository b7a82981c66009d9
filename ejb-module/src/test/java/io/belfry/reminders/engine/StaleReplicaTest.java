package io.belfry.reminders.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.fire.ResurrectionGuard;
import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.placement.CacheOwnership;
import io.belfry.reminders.store.CacheValues;
import io.belfry.reminders.store.VersionMergeTest;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.infinispan.Cache;
import org.infinispan.context.Flag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The owner of a key whose own replica holds an older version than the others, as a joiner's file
 * store can after a state transfer: the resurrection guard shows that version replaced, and the
 * owner must not bury it over the newer, acknowledged one (ChaosClusterIT, 2026-11-27).
 */
class StaleReplicaTest {

  @Test
  void outlivedOnlyOnTheOwnersReplica_theReplicasSettleOnTheNewer_whichFiresOnce(
      @TempDir Path dir) {
    List<Long> asked = new CopyOnWriteArrayList<>();
    // the archive knows version 10 was replaced (by 11), and nothing against 11
    ResurrectionGuard archive =
        candidates -> {
          Map<ReminderId, ReminderState> outlived = new HashMap<>();
          for (ResurrectionGuard.Candidate candidate : candidates) {
            asked.add(candidate.version());
            if (candidate.version() == 10) {
              outlived.put(candidate.id(), ReminderState.CANCELLED);
            }
          }
          return outlived;
        };
    try (TestCluster cluster = new TestCluster(dir).withResurrectionGuard(archive).start()) {
      int owner = 0;
      ReminderId id = keyOwnedBy(cluster.cache(owner), "stale");
      ReminderRecord older = VersionMergeTest.live(id, 10);
      ReminderRecord newer = VersionMergeTest.live(id, 11);
      // both due long ago, both minted before any engine started: the guard is asked first
      cluster.cache(1).put(id.cacheKey(), encoded(newer));
      cluster
          .cache(owner)
          .getAdvancedCache()
          .withFlags(Flag.CACHE_MODE_LOCAL)
          .put(id.cacheKey(), encoded(older));
      // the owner reads its replica again, as after a restart or a gained segment
      cluster.engine(owner).stop();
      cluster.startEngine(owner);

      cluster.tickUntil(() -> !cluster.deliveredIn(id.namespace()).isEmpty(), "the fire");
      cluster.tickAll();

      assertThat(asked).as("versions the guard was asked about").contains(10L, 11L);
      assertThat(cluster.deliveredIn(id.namespace()))
          .extracting(delivered -> delivered.fire().getFence())
          .as("the newer version fired once, the older never")
          .containsExactly(11L);
      for (int node = 0; node < 3; node++) {
        ReminderRecord held =
            ReminderCodec.decode(
                id,
                CacheValues.fromCache(
                    cluster
                        .cache(node)
                        .getAdvancedCache()
                        .withFlags(Flag.CACHE_MODE_LOCAL)
                        .get(id.cacheKey())));
        assertThat(held.version()).as("node %d", node).isEqualTo(11);
        assertThat(held.state()).as("node %d", node).isEqualTo(ReminderState.FIRED);
      }
    }
  }

  private static ReminderId keyOwnedBy(Cache<String, String> cache, String prefix) {
    CacheOwnership ownership = new CacheOwnership(cache);
    for (int i = 0; ; i++) {
      ReminderId id = ReminderId.of("stale", prefix + i);
      if (ownership.isPrimaryOwner(id.cacheKey())) {
        return id;
      }
    }
  }

  private static String encoded(ReminderRecord record) {
    return CacheValues.toCache(ReminderCodec.encode(record));
  }
}
