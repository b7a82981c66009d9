package io.belfry.web.metrics;

import io.belfry.reminders.placement.ClusterSnapshot;
import io.belfry.reminders.placement.ClusterStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;

/**
 * A {@link ClusterSnapshot} at most {@link #MAX_AGE} old, for readers that poll (metric scrapes,
 * the dashboard): a snapshot scans the whole cache, so it is taken at most once per interval,
 * whoever asks.
 */
@ApplicationScoped
public class RecentClusterSnapshot {

  static final Duration MAX_AGE = Duration.ofSeconds(10);

  @Inject ClusterStatus cluster;

  private ClusterSnapshot snapshot;
  private long takenAt;

  public synchronized ClusterSnapshot get() {
    long now = System.nanoTime();
    if (snapshot == null || now - takenAt > MAX_AGE.toNanos()) {
      snapshot = cluster.snapshot();
      takenAt = System.nanoTime();
    }
    return snapshot;
  }
}
