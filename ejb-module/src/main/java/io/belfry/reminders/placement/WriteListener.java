package io.belfry.reminders.placement;

import io.belfry.reminders.store.CacheValues;
import org.infinispan.notifications.Listener;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryCreated;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryModified;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryRemoved;
import org.infinispan.notifications.cachelistener.event.CacheEntryCreatedEvent;
import org.infinispan.notifications.cachelistener.event.CacheEntryModifiedEvent;
import org.infinispan.notifications.cachelistener.event.CacheEntryRemovedEvent;
import org.jboss.logging.Logger;

/**
 * Forwards every write applied on this node, local or replicated, to a {@link ChangeSink}, so that
 * each node keeps its time index and clock in step with the cache. Post events only: the value is
 * then applied. Synchronous on purpose: in a synchronous replicated cache the forward happens
 * before the writer's call returns, so once a set is acknowledged every node has its hint queued.
 * Never throws: an exception here would fail the write on this replica.
 */
@Listener(observation = Listener.Observation.POST)
public final class WriteListener {

  private static final Logger LOG = Logger.getLogger(WriteListener.class);

  private final ChangeSink sink;
  private final java.util.Set<String> foreignTypesLogged =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  WriteListener(ChangeSink sink) {
    this.sink = sink;
  }

  @CacheEntryCreated
  public void created(CacheEntryCreatedEvent<Object, Object> event) {
    written(event.getKey(), event.getValue());
  }

  @CacheEntryModified
  public void modified(CacheEntryModifiedEvent<Object, Object> event) {
    written(event.getKey(), event.getNewValue());
  }

  @CacheEntryRemoved
  public void removed(CacheEntryRemovedEvent<Object, Object> event) {
    if (!(event.getKey() instanceof String key)) {
      return;
    }
    try {
      sink.removed(key);
    } catch (RuntimeException e) {
      LOG.warnf(e, "BELFRY-0102 Could not record removal of %s", event.getKey());
    }
  }

  // Object, not String: the cache is shared, and a foreign entry must not fail its own write here.
  private void written(Object key, Object value) {
    if (!(key instanceof String cacheKey) || !(value instanceof String encoded)) {
      if (key != null
          && value != null
          && foreignTypesLogged.add(key.getClass() + "/" + value.getClass())) {
        LOG.warnf(
            "BELFRY-0105 Ignoring writes of %s -> %s: not a reminder",
            key.getClass().getName(), value.getClass().getName());
      }
      return;
    }
    try {
      sink.written(cacheKey, CacheValues.fromCache(encoded));
    } catch (RuntimeException e) {
      LOG.warnf(e, "BELFRY-0103 Could not record write of %s", key);
    }
  }
}
