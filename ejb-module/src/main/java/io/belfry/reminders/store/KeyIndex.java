package io.belfry.reminders.store;

import io.belfry.reminders.placement.ChangeSink;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The cache keys of this node's replica in order, so that a page of the listing starts at its
 * cursor instead of reading the whole replica. Kept up to date by the change feed (adds on writes,
 * drops on removes). The replica is read into it by the first reader, not at start (the scheduler's
 * own recovery pass is start-up work enough), and again by the next reader after a topology change
 * (a join, a merge after a partition, whose conflict resolution may write entries), never on the
 * notification thread. Readers arriving during a load wait for it.
 *
 * <p>The index may hold a key whose entry is gone: a remove that races the load can be followed by
 * the load adding the key back. Readers therefore re-read every key from the store and skip the
 * missing ones; the index never misses a key that is stored, because it subscribes before it loads
 * and both paths only add. A missing entry is not pruned on read, since a write could re-add the
 * key between that read and the prune.
 *
 * <p>Memory: one skip-list node per key, sharing the key strings the cache already holds (about 40
 * bytes per reminder).
 */
public final class KeyIndex implements ChangeSink {

  private final ReminderStore store;
  private final ConcurrentSkipListSet<String> keys = new ConcurrentSkipListSet<>();
  private final AtomicBoolean stale = new AtomicBoolean(true);
  private final Object loadLock = new Object();
  // set before stale is cleared and reset after the load: a reader that sees stale cleared
  // while a load is running also sees this, and waits
  private volatile boolean loading;

  /** An index to subscribe to the change feed before its first read, so no write is missed. */
  public KeyIndex(ReminderStore store) {
    this.store = store;
  }

  /** All keys from {@code from} on ({@code null}: all keys), in order; a live view. */
  public NavigableSet<String> from(String from, boolean inclusive) {
    if (stale.get() || loading) {
      synchronized (loadLock) {
        loading = true;
        try {
          if (stale.getAndSet(false)) {
            store.forEachLocal(null, (cacheKey, encoded) -> keys.add(cacheKey));
          }
        } finally {
          loading = false;
        }
      }
    }
    return from == null ? keys : keys.tailSet(from, inclusive);
  }

  public int size() {
    return keys.size();
  }

  @Override
  public void written(String cacheKey, byte[] encoded) {
    keys.add(cacheKey);
  }

  @Override
  public void removed(String cacheKey) {
    keys.remove(cacheKey);
  }

  @Override
  public void topologyChanged() {
    stale.set(true);
  }
}
