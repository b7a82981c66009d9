package io.belfry.reminders.placement;

import io.belfry.reminders.config.RemindersCache;
import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.store.InfinispanReminderStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.infinispan.Cache;
import org.infinispan.remoting.transport.Address;

/**
 * Takes {@link ClusterSnapshot}s of the reminders cache. Members, coordinator and segment owners
 * are read at every call. The live counts come from one pass over this node's replica (every node
 * holds every entry), per segment and per namespace, taken at most every {@link #COUNTS_MAX_AGE}:
 * each member's armed count is the sum over the segments it owns now, so a leave or a join moves
 * the counts at once, while a set or a fire shows within that age. A pass costs linear time in the
 * number of entries; a snapshot between passes costs the number of segments.
 */
@ApplicationScoped
public class ClusterStatus {

  /** How old the live counts of a snapshot may be (the members and owners are always current). */
  public static final Duration COUNTS_MAX_AGE = Duration.ofSeconds(10);

  private final Cache<String, String> reminders;
  private final ClusterView view;
  private LiveCounts counts;
  // WildFly unmarshals cache keys with the thread's context class loader: a scan from a server
  // thread (a metrics scrape) would see only marshalled keys. Scan as the deployment.
  private final ClassLoader deploymentLoader = Thread.currentThread().getContextClassLoader();

  /** For CDI's client proxy only. */
  protected ClusterStatus() {
    this(null, null);
  }

  @Inject
  public ClusterStatus(@RemindersCache Cache<String, String> reminders, ClusterView view) {
    this.reminders = reminders;
    this.view = view;
  }

  /**
   * The node that fires this reminder in the topology installed now: the primary owner of its
   * segment (it fires only if one of its deployments serves the namespace).
   */
  public String ownerOf(String namespace, String key) {
    return new CacheOwnership(reminders).primaryOwnerOf(ReminderId.of(namespace, key).cacheKey());
  }

  public ClusterSnapshot snapshot() {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(deploymentLoader);
    try {
      return take();
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  private ClusterSnapshot take() {
    // the primary owners exactly as firing decides them, so the view never names another node;
    // read live at every call (cheap), so a leave or a join shows at once
    CacheOwnership ownership = new CacheOwnership(reminders);
    List<String> owners = ownership.primaryOwners();
    LiveCounts counts = recentCounts(ownership);
    Map<String, long[]> armed = new LinkedHashMap<>();
    for (Address member :
        reminders.getAdvancedCache().getDistributionManager().getCacheTopology().getMembers()) {
      armed.put(member.toString(), new long[1]);
    }
    for (int segment = 0;
        segment < owners.size() && segment < counts.bySegment().length;
        segment++) {
      long[] count = armed.get(owners.get(segment));
      if (count != null) {
        count[0] += counts.bySegment()[segment];
      }
    }
    List<ClusterSnapshot.Member> members = new ArrayList<>();
    armed.forEach(
        (name, count) ->
            members.add(
                new ClusterSnapshot.Member(name, Collections.frequency(owners, name), count[0])));
    List<String> viewMembers = view.members();
    String coordinator = viewMembers.isEmpty() ? view.nodeName() : viewMembers.get(0);
    return new ClusterSnapshot(view.nodeName(), coordinator, members, owners, counts.byNamespace());
  }

  /** Live reminders per segment and per namespace, as one pass over the replica found them. */
  private record LiveCounts(long takenAtNanos, long[] bySegment, Map<String, Long> byNamespace) {}

  /**
   * The counts of a pass at most {@link #COUNTS_MAX_AGE} old: a pass decodes every entry, so it is
   * taken at most once per interval whoever asks (every open console tab refreshes every 2 s), and
   * the cost of a refresh does not grow with the store in between.
   */
  private synchronized LiveCounts recentCounts(CacheOwnership ownership) {
    LiveCounts last = counts;
    long now = System.nanoTime();
    if (last != null && now - last.takenAtNanos() < COUNTS_MAX_AGE.toNanos()) {
      return last;
    }
    long[] bySegment = new long[ownership.segmentCount()];
    Map<String, Long> byNamespace = new HashMap<>();
    new InfinispanReminderStore(reminders)
        .forEachLocal(
            null,
            (key, value) -> {
              ReminderId id = ReminderId.fromCacheKey(key);
              if (!ReminderCodec.decode(id, value).isTombstone()) {
                byNamespace.merge(id.namespace(), 1L, Long::sum);
                bySegment[ownership.segmentOf(key)]++;
              }
            });
    counts = new LiveCounts(System.nanoTime(), bySegment, byNamespace);
    return counts;
  }
}
