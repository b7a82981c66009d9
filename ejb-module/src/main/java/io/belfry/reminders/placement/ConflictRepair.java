package io.belfry.reminders.placement;

import io.belfry.reminders.store.VersionMerge;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.infinispan.Cache;
import org.infinispan.conflict.ConflictManager;
import org.infinispan.conflict.ConflictManagerFactory;
import org.infinispan.notifications.Listener;
import org.infinispan.notifications.cachemanagerlistener.annotation.Merged;
import org.infinispan.notifications.cachemanagerlistener.event.MergeEvent;
import org.jboss.logging.Logger;

/**
 * Reconciles the replicas of the reminders cache with {@link VersionMerge} after partitions merge.
 * The WildFly subsystem cannot name a custom merge policy (only Infinispan's built-in ones, none of
 * which knows Belfry's versions), so the cache runs with merge policy NONE and this listener runs
 * Infinispan's conflict resolution itself: on the coordinator, off the notification thread, once
 * the merged topology has finished its state transfer.
 */
@Listener
public final class ConflictRepair {

  private static final Logger LOG = Logger.getLogger(ConflictRepair.class);
  private static final int ATTEMPTS = 60;
  private static final long PAUSE_MILLIS = 500;

  private final Cache<String, String> cache;
  private final Executor executor;
  private final AtomicBoolean repairing = new AtomicBoolean();

  public ConflictRepair(Cache<String, String> cache, Executor executor) {
    this.cache = cache;
    this.executor = executor;
  }

  public void start() {
    cache.getCacheManager().addListener(this);
  }

  public void stop() {
    cache.getCacheManager().removeListener(this);
  }

  @Merged
  public void merged(MergeEvent event) {
    if (event.isMergeView() && cache.getCacheManager().isCoordinator()) {
      LOG.infof(
          "BELFRY-0020 Partitions merged (%s): reconciling replicas", event.getSubgroupsMerged());
      executor.execute(this::repair);
    }
  }

  /**
   * Resolves every key whose replicas differ, once no state transfer is in progress; retried while
   * the topology is still settling. One repair at a time on this node.
   *
   * @return whether a resolution ran to the end
   */
  public boolean repair() {
    if (!repairing.compareAndSet(false, true)) {
      return false;
    }
    try {
      ConflictManager<String, String> conflicts =
          ConflictManagerFactory.get(cache.getAdvancedCache());
      for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
        try {
          if (!conflicts.isStateTransferInProgress()
              && !conflicts.isConflictResolutionInProgress()) {
            long start = System.nanoTime();
            conflicts.resolveConflicts(VersionMerge.of(cache));
            LOG.infof(
                "BELFRY-0021 Replicas reconciled in %d ms",
                (System.nanoTime() - start) / 1_000_000);
            return true;
          }
        } catch (RuntimeException e) {
          LOG.debugf(e, "Conflict resolution attempt %d failed; retrying", attempt);
        }
        Thread.sleep(PAUSE_MILLIS);
      }
      LOG.warnf(
          "BELFRY-0022 Replicas not reconciled: the topology did not settle within %d s",
          ATTEMPTS * PAUSE_MILLIS / 1000);
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      repairing.set(false);
    }
  }
}
