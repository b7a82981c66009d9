package io.belfry.reminders.placement;

import org.infinispan.notifications.Listener;
import org.infinispan.notifications.cachelistener.annotation.TopologyChanged;
import org.infinispan.notifications.cachelistener.event.TopologyChangedEvent;
import org.jboss.logging.Logger;

/**
 * Tells a {@link ChangeSink} that the topology changed, once it is installed (post event). Which
 * segments were gained or lost is computed by the sink's own worker against the topology current
 * when it runs, not here: this thread installs the topology and must not wait for Belfry (the same
 * reason Infinispan's own {@code SegmentListener} offloads and catches everything).
 */
@Listener(observation = Listener.Observation.POST)
public final class TopologyListener {

  private static final Logger LOG = Logger.getLogger(TopologyListener.class);

  private final ChangeSink sink;

  TopologyListener(ChangeSink sink) {
    this.sink = sink;
  }

  @TopologyChanged
  public void changed(TopologyChangedEvent<String, String> event) {
    try {
      sink.topologyChanged();
    } catch (RuntimeException e) {
      LOG.warnf(e, "BELFRY-0104 Could not hand off topology %d", event.getNewTopologyId());
    }
  }
}
