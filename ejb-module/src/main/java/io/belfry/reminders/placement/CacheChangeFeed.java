package io.belfry.reminders.placement;

import java.util.Objects;
import org.infinispan.Cache;
import org.jboss.logging.Logger;

/**
 * The {@link ChangeFeed} of the reminders cache: registers a {@link WriteListener} (post events of
 * every create, modify and remove applied on this node, replicated ones included) and a {@link
 * TopologyListener}. Both only forward to the sink, which hands off.
 */
public final class CacheChangeFeed implements ChangeFeed {

  private static final Logger LOG = Logger.getLogger(CacheChangeFeed.class);

  private final Cache<String, String> cache;
  private WriteListener writes;
  private TopologyListener topology;

  public CacheChangeFeed(Cache<String, String> cache) {
    this.cache = Objects.requireNonNull(cache, "cache");
  }

  @Override
  public synchronized void subscribe(ChangeSink sink) {
    Objects.requireNonNull(sink, "sink");
    if (writes != null) {
      throw new IllegalStateException("already subscribed");
    }
    writes = new WriteListener(sink);
    topology = new TopologyListener(sink);
    cache.addListener(writes);
    cache.addListener(topology);
  }

  @Override
  public synchronized void unsubscribe() {
    if (writes == null) {
      return;
    }
    try {
      cache.removeListener(writes);
      cache.removeListener(topology);
    } catch (RuntimeException e) {
      // A stopping cache may refuse; its listeners die with it.
      LOG.debugf(e, "BELFRY-0101 Could not remove listeners from %s", cache.getName());
    }
    writes = null;
    topology = null;
  }
}
