package io.belfry.reminders.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.placement.JoinWrites;
import io.belfry.reminders.store.CacheValues;
import io.belfry.reminders.store.VersionMergeTest;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.infinispan.Cache;
import org.infinispan.commands.read.GetCacheEntryCommand;
import org.infinispan.context.Flag;
import org.infinispan.context.InvocationContext;
import org.infinispan.context.impl.FlagBitSets;
import org.infinispan.factories.ComponentRegistry;
import org.infinispan.interceptors.AsyncInterceptorChain;
import org.infinispan.interceptors.DDAsyncInterceptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A settling's read of the replicas still in flight when a member leaves. Through Infinispan
 * 16.0.5's {@code ConflictManager.getAllVersions}, the topology update that removes the member
 * failed the reading node's rebalance ({@code UnsupportedOperationException} in {@code
 * VersionRequest.cancelRequestIfOutdated}), and its writes then waited for a topology it never
 * installed: a CI rehearsal's majority refused writes for the whole of a partition.
 */
class ReplicaReadInFlightTest {

  private TestCluster cluster;

  @BeforeEach
  void start(@TempDir Path dir) {
    cluster = new TestCluster(dir).start();
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void aMemberLeavesWhileAReadIsInFlight_theReaderKeepsTakingWrites() throws Exception {
    ReminderId key = ReminderId.of("in-flight", "read");
    cluster.cache(0).put(key.cacheKey(), encoded(VersionMergeTest.live(key, 10)));
    CompletableFuture<Void> answer = new CompletableFuture<>();
    HeldReads held = new HeldReads(answer);
    ComponentRegistry.of(cluster.cache(1))
        .getComponent(AsyncInterceptorChain.class)
        .addInterceptor(held, 0);

    ExecutorService reader = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> settling =
          reader.submit(
              () ->
                  new JoinWrites(cluster.cache(0), Runnable::run).settle(List.of(key.cacheKey())));
      TestCluster.await(() -> held.reached.isDone(), "member 1 holding member 0's read");

      cluster.stopMember(2); // every key's owners change while the read waits for member 1
      cluster.awaitStableTopology(2);
      answer.complete(null);
      assertThat(settling.get(60, TimeUnit.SECONDS)).as("the replicas agreed").isZero();

      ReminderRecord newer = VersionMergeTest.live(key, 11);
      Cache<String, String> writer = cluster.cache(0);
      CompletableFuture<String> write =
          writer.putAsync(key.cacheKey(), encoded(newer)).toCompletableFuture();
      write.get(30, TimeUnit.SECONDS); // timed out waiting for a topology before the fix
      assertThat(
              cluster
                  .cache(1)
                  .getAdvancedCache()
                  .withFlags(Flag.CACHE_MODE_LOCAL)
                  .get(key.cacheKey()))
          .isEqualTo(encoded(newer));
    } finally {
      answer.complete(null);
      reader.shutdownNow();
    }
  }

  private static String encoded(ReminderRecord record) {
    return CacheValues.toCache(ReminderCodec.encode(record));
  }

  /** Holds the answer to other members' reads that ignore ownership (a replica read). */
  private static final class HeldReads extends DDAsyncInterceptor {

    final CompletableFuture<Void> reached = new CompletableFuture<>();
    private final CompletableFuture<Void> answer;

    HeldReads(CompletableFuture<Void> answer) {
      this.answer = answer;
    }

    @Override
    public Object visitGetCacheEntryCommand(InvocationContext ctx, GetCacheEntryCommand command) {
      if (!ctx.isOriginLocal() && command.hasAnyFlag(FlagBitSets.SKIP_OWNERSHIP_CHECK)) {
        reached.complete(null);
        return asyncInvokeNext(ctx, command, answer);
      }
      return invokeNext(ctx, command);
    }
  }
}
