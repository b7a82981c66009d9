package io.belfry.reminders.placement;

import io.belfry.reminders.config.RemindersCache;
import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.store.InfinispanReminderStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.infinispan.Cache;
import org.infinispan.remoting.transport.Address;

/**
 * Takes {@link ClusterSnapshot}s of the reminders cache. The armed counts come from one pass over
 * this node's replica (every node holds every entry), attributing each live entry to its segment's
 * primary owner, so they are exact for the topology read at the start, at a cost linear in the
 * number of entries (not measured yet at scale).
 */
@ApplicationScoped
public class ClusterStatus {

  private final Cache<String, String> reminders;
  private final ClusterView view;
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
    // the primary owners exactly as firing decides them, so the view never names another node
    CacheOwnership ownership = new CacheOwnership(reminders);
    List<String> owners = ownership.primaryOwners();
    Map<String, long[]> armed = new LinkedHashMap<>();
    for (Address member :
        reminders.getAdvancedCache().getDistributionManager().getCacheTopology().getMembers()) {
      armed.put(member.toString(), new long[1]);
    }
    Map<String, Long> pending = new HashMap<>();
    new InfinispanReminderStore(reminders)
        .forEachLocal(
            null,
            (key, value) -> {
              ReminderId id = ReminderId.fromCacheKey(key);
              if (!ReminderCodec.decode(id, value).isTombstone()) {
                pending.merge(id.namespace(), 1L, Long::sum);
                long[] count = armed.get(owners.get(ownership.segmentOf(key)));
                if (count != null) {
                  count[0]++;
                }
              }
            });
    List<ClusterSnapshot.Member> members = new ArrayList<>();
    armed.forEach(
        (name, count) ->
            members.add(
                new ClusterSnapshot.Member(name, Collections.frequency(owners, name), count[0])));
    List<String> viewMembers = view.members();
    String coordinator = viewMembers.isEmpty() ? view.nodeName() : viewMembers.get(0);
    return new ClusterSnapshot(view.nodeName(), coordinator, members, owners, pending);
  }
}
