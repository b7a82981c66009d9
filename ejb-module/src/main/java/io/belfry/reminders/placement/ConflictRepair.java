package io.belfry.reminders.placement;

import io.belfry.reminders.store.VersionMerge;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.infinispan.Cache;
import org.infinispan.conflict.ConflictManager;
import org.infinispan.container.entries.CacheEntry;
import org.infinispan.encoding.DataConversion;
import org.infinispan.notifications.Listener;
import org.infinispan.notifications.cachemanagerlistener.annotation.Merged;
import org.infinispan.notifications.cachemanagerlistener.event.MergeEvent;
import org.infinispan.remoting.transport.Address;
import org.jboss.logging.Logger;

/**
 * Reconciles the replicas of the reminders cache with {@link VersionMerge}. The WildFly subsystem
 * cannot name a custom merge policy (only Infinispan's built-in ones, none of which knows Belfry's
 * versions), so the cache runs with merge policy NONE and this listener reconciles the replicas
 * itself: on the coordinator, off the notification thread, once the topology has finished its state
 * transfer, with conditional writes only.
 *
 * <p>It runs after partitions merge. A merge that arrives while a pass runs is not dropped: another
 * pass follows. A pass waits for the topology to settle for as long as it takes; only stopping the
 * deployment ends the wait. It does not run when a member joins: a pass reads every replica of
 * every key (11-20 s on the test clusters even with no key differing), which slowed a graceful
 * leave's hand-off when it ran on joins. A joiner's replica is replaced by state transfer, but some
 * writes made while it joined were seen to miss it; {@link JoinWrites} settles just those keys.
 */
@Listener
public final class ConflictRepair {

  private static final Logger LOG = Logger.getLogger(ConflictRepair.class);
  private static final long PAUSE_MILLIS = 500;
  private static final long PATIENCE_BEFORE_WARNING_MILLIS = 30_000;

  private final Cache<String, String> cache;
  private final ReplicaSettling settling;
  private final Executor executor;
  private final AtomicBoolean requested = new AtomicBoolean();
  private final AtomicBoolean draining = new AtomicBoolean();
  private volatile boolean stopped;

  public ConflictRepair(Cache<String, String> cache, Executor executor) {
    this.cache = cache;
    this.settling = new ReplicaSettling(cache);
    this.executor = executor;
  }

  public void start() {
    cache.getCacheManager().addListener(this);
  }

  public void stop() {
    stopped = true;
    cache.getCacheManager().removeListener(this);
  }

  @Merged
  public void merged(MergeEvent event) {
    if (event.isMergeView() && cache.getCacheManager().isCoordinator()) {
      LOG.infof(
          "BELFRY-0020 Partitions merged (%s): reconciling replicas", event.getSubgroupsMerged());
      request();
    }
  }

  /** Asks for a pass; at most one drains the requests at a time, and none is lost. */
  private void request() {
    requested.set(true);
    if (draining.compareAndSet(false, true)) {
      try {
        executor.execute(() -> ReplicaSettling.inDeployment(this::drain));
      } catch (RejectedExecutionException e) {
        // the server is suspending or stopping; the next merge asks again
        draining.set(false);
        LOG.warnf("BELFRY-0024 Replicas not reconciled: the executor refused (%s)", e);
      }
    }
  }

  private void drain() {
    while (true) {
      try {
        while (!stopped && requested.getAndSet(false)) {
          if (cache.getCacheManager().isCoordinator() && !repair()) {
            requested.set(true); // stopping or interrupted: the next drain takes it up
            return;
          }
        }
      } finally {
        draining.set(false);
      }
      // a request that came after the loop's last look and before the flag was cleared
      if (stopped || !requested.get() || !draining.compareAndSet(false, true)) {
        return;
      }
    }
  }

  /**
   * Walks the keys whose replicas differ and settles each on the winner of {@link VersionMerge}.
   * Not {@code resolveConflicts}: that writes its result unconditionally, and the nodes keep firing
   * while it runs, so a fire committed between its read and its write (a tombstone) was overwritten
   * by the pending version it had read, and fired again. Found by {@code PartitionClusterIT}.
   */
  private int reconcile(ConflictManager<String, String> conflicts) {
    VersionMerge rule = VersionMerge.of(cache);
    DataConversion keys = cache.getAdvancedCache().getKeyDataConversion();
    DataConversion values = cache.getAdvancedCache().getValueDataConversion();
    int[] differing = {0};
    try (Stream<Map<Address, CacheEntry<String, String>>> all = conflicts.getConflicts()) {
      all.forEach(
          replicas -> {
            differing[0]++;
            CacheEntry<String, String> winner =
                rule.merge(null, new ArrayList<>(replicas.values()));
            if (winner == null || winner.getKey() == null || winner.getValue() == null) {
              return;
            }
            // in the storage form: not a String in WildFly, whatever the generic type says
            Object storageKey = ((CacheEntry<?, ?>) winner).getKey();
            settling.settle(
                storageKey,
                (String) keys.fromStorage(winner.getKey()),
                (String) values.fromStorage(winner.getValue()));
          });
    }
    return differing[0];
  }

  /**
   * Resolves every key whose replicas differ, once no state transfer is in progress; waits while
   * the topology settles and starts again when a walk fails part-way (a view changed under it).
   * Merges reach it through one drain at a time; tests call it directly.
   *
   * @return whether a resolution ran to the end (false: stopped or interrupted)
   */
  public boolean repair() {
    try {
      ConflictManager<String, String> conflicts = settling.conflicts();
      long waitingSince = System.nanoTime();
      boolean warned = false;
      while (!stopped) {
        try {
          if (!conflicts.isStateTransferInProgress()
              && !conflicts.isConflictResolutionInProgress()) {
            long start = System.nanoTime();
            int keys = reconcile(conflicts);
            LOG.infof(
                "BELFRY-0021 Replicas reconciled in %d ms (%d keys differed)",
                (System.nanoTime() - start) / 1_000_000, keys);
            return true;
          }
        } catch (RuntimeException e) {
          LOG.debugf(e, "Conflict resolution failed part-way; starting again");
        }
        if (!warned
            && System.nanoTime() - waitingSince > PATIENCE_BEFORE_WARNING_MILLIS * 1_000_000) {
          warned = true;
          LOG.warnf(
              "BELFRY-0022 Replicas not reconciled yet: the topology has not settled for %d s;"
                  + " still trying",
              PATIENCE_BEFORE_WARNING_MILLIS / 1000);
        }
        Thread.sleep(PAUSE_MILLIS);
      }
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
