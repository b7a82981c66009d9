package io.belfry.web.metrics;

import io.belfry.audit.AuditWriter;
import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.placement.ClusterSnapshot;
import io.belfry.reminders.placement.ClusterStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Belfry's meters in the server's Micrometer registry (scraped at {@code :9990/metrics}; names and
 * meaning in docs/metrics.md). Counters and the lateness timer count what this deployment's engine
 * does: changes made through the API and console, fires of the namespaces it serves. Gauges read
 * the replicated cache, which every node holds whole.
 *
 * <p>Only the registry's convenience methods are used: in WildFly 39 meters registered through
 * Micrometer's builders are never exported. The meters live as long as the deployment: the server's
 * registry outlives it, and a gauge left behind would keep reading the undeployed objects (NaN)
 * while a redeployment's registration of the same name returned that stale gauge.
 */
@ApplicationScoped
public class BelfryMetrics {

  static final String PREFIX = "belfry.";

  @Inject MeterRegistry registry;

  @Inject ClusterStatus cluster;

  @Inject AuditWriter audit;

  @Inject LatenessWindow lateness;

  private final Set<String> namespacesWithGauge = ConcurrentHashMap.newKeySet();

  /**
   * The counters and timers by name and namespace. WildFly's registry finds an existing meter by
   * searching every meter it holds, so asking it on each activity cost a search per set and per
   * fire (15 % of a REST set's CPU in a profile, docs/performance/comparison.md); it is asked once
   * instead.
   */
  private final Map<String, Meter> meters = new ConcurrentHashMap<>();

  void onStart(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
    registry.gauge("belfry.segments.owned", Tags.empty(), this, m -> m.ownedSegments());
    registry.gauge("belfry.audit.queue.depth", Tags.empty(), audit, a -> a.queueDepth());
    registry.gauge(
        "belfry.audit.write.lag.seconds", Tags.empty(), audit, a -> a.writeLag().toMillis() / 1e3);
    registry.gauge(
        "belfry.fire.lateness.p50.seconds", Tags.empty(), lateness, w -> w.percentile(50) / 1e3);
    registry.gauge(
        "belfry.fire.lateness.p99.seconds", Tags.empty(), lateness, w -> w.percentile(99) / 1e3);
    // no cache scan here: the first scrape takes the first snapshot and adds the pending gauges
  }

  @PreDestroy
  void removeMeters() {
    for (Meter meter : registry.getMeters()) {
      if (meter.getId().getName().startsWith(PREFIX)) {
        registry.remove(meter);
      }
    }
  }

  void onActivity(@Observes ReminderActivity activity) {
    String namespace = activity.namespace();
    switch (activity.type()) {
      case SET, REPLACED -> counter("belfry.reminders.sets", namespace).increment();
      case CANCELLED -> counter("belfry.reminders.cancels", namespace).increment();
      case FIRED -> {
        counter("belfry.fires", namespace).increment();
        if (activity.dueAt() != null) {
          long late = Math.max(0, Duration.between(activity.dueAt(), activity.at()).toMillis());
          lateness.record(late);
          latenessTimer(namespace).record(late, TimeUnit.MILLISECONDS);
        }
      }
      case DELIVERY_FAILED -> counter("belfry.delivery.failures", namespace).increment();
      default -> {}
    }
  }

  private Counter counter(String name, String namespace) {
    return (Counter)
        meters.computeIfAbsent(
            name + ' ' + namespace, k -> registry.counter(name, Tags.of("namespace", namespace)));
  }

  private Timer latenessTimer(String namespace) {
    return (Timer)
        meters.computeIfAbsent(
            "belfry.fire.lateness " + namespace,
            k -> registry.timer("belfry.fire.lateness", Tags.of("namespace", namespace)));
  }

  private double ownedSegments() {
    ClusterSnapshot current = current();
    return current.segmentOwners().stream().filter(current.node()::equals).count();
  }

  private double pending(String namespace) {
    return current().pendingByNamespace().getOrDefault(namespace, 0L);
  }

  private ClusterSnapshot current() {
    ClusterSnapshot snapshot = cluster.snapshot();
    registerPendingGauges(snapshot);
    return snapshot;
  }

  // One gauge per namespace seen; a namespace that empties keeps its gauge at 0.
  private void registerPendingGauges(ClusterSnapshot snapshot) {
    for (String namespace : snapshot.pendingByNamespace().keySet()) {
      if (namespacesWithGauge.add(namespace)) {
        registry.gauge(
            "belfry.reminders.pending",
            Tags.of("namespace", namespace),
            this,
            m -> m.pending(namespace));
      }
    }
  }
}
