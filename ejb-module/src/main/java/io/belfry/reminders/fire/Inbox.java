package io.belfry.reminders.fire;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The hand-off between Infinispan's notification threads and the scheduler's worker. Notification
 * threads (writes, topology) never touch the index: they only append here, lock-free. Every run
 * first drains the inbox into the {@link OwnedIndex}, under the scheduler's lock, so the index
 * reflects every write acknowledged before the run: a synchronous replicated write notifies every
 * replica before it returns.
 */
final class Inbox {

  private sealed interface Change {}

  private record Written(String key, byte[] value) implements Change {}

  private record Removed(String key) implements Change {}

  /** {@code receivingState}: this node did not hold the whole replica in the new topology. */
  private record TopologyChange(boolean receivingState) implements Change {}

  private static final Change TOPOLOGY = new TopologyChange(false);
  private static final Change TOPOLOGY_RECEIVING_STATE = new TopologyChange(true);

  private final Queue<Change> changes = new ConcurrentLinkedQueue<>();

  void written(String cacheKey, byte[] encoded) {
    changes.add(new Written(cacheKey, encoded));
  }

  void removed(String cacheKey) {
    changes.add(new Removed(cacheKey));
  }

  void topologyChanged(boolean receivingState) {
    changes.add(receivingState ? TOPOLOGY_RECEIVING_STATE : TOPOLOGY);
  }

  /** Which members fire which segments changed, not the topology: ownership is read again. */
  void ownersChanged() {
    changes.add(TOPOLOGY);
  }

  void clear() {
    changes.clear();
  }

  /** Applies the queued changes to {@code index} in the order they were seen; under the lock. */
  void drainInto(OwnedIndex index) {
    for (Change change = changes.poll(); change != null; change = changes.poll()) {
      if (change instanceof Written w) {
        index.armIfOwned(w.key(), w.value());
      } else if (change instanceof Removed r) {
        // Unversioned, and safe: the only removal is the purge's conditional remove of a tombstone
        // (whose own write dropped its hint), and a newer version of the key is a later write,
        // notified after the removal (per key, under its lock), so its Written re-arms it.
        index.drop(r.key());
      } else {
        if (((TopologyChange) change).receivingState()) {
          index.receivingState();
        }
        index.applyTopology();
      }
    }
  }
}
