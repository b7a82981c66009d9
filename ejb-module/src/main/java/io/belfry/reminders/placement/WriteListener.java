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

  WriteListener(ChangeSink sink) {
    this.sink = sink;
  }

  @CacheEntryCreated
  public void created(CacheEntryCreatedEvent<String, String> event) {
    written(event.getKey(), event.getValue());
  }

  @CacheEntryModified
  public void modified(CacheEntryModifiedEvent<String, String> event) {
    written(event.getKey(), event.getNewValue());
  }

  @CacheEntryRemoved
  public void removed(CacheEntryRemovedEvent<String, String> event) {
    try {
      sink.removed(event.getKey());
    } catch (RuntimeException e) {
      LOG.warnf(e, "BELFRY-0102 Could not record removal of %s", event.getKey());
    }
  }

  private void written(String key, String value) {
    if (value == null) {
      return;
    }
    try {
      sink.written(key, CacheValues.fromCache(value));
    } catch (RuntimeException e) {
      LOG.warnf(e, "BELFRY-0103 Could not record write of %s", key);
    }
  }
}
