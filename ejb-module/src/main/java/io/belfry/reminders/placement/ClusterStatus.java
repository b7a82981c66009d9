package io.belfry.reminders.placement;

import io.belfry.reminders.cdi.EngineRuntime;
import io.belfry.reminders.config.RemindersCache;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.store.KeyIndex;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.infinispan.Cache;
import org.infinispan.remoting.transport.Address;

/**
 * Takes {@link ClusterSnapshot}s of the reminders cache. Members, coordinator and segment owners
 * are read at every call. The live counts are the ones this deployment's engine keeps of its
 * replica as it changes ({@link KeyIndex}: every node holds every entry), per segment and per
 * namespace: each member's armed count is the sum over the segments it owns now, so a leave or a
 * join moves the counts at once, and a set or a fire shows as soon as this node applied it. A
 * snapshot costs the number of segments and namespaces, whatever the number of reminders; only the
 * first one after the engine starts or the topology changes reads the replica into the index.
 */
@ApplicationScoped
public class ClusterStatus {

  private final Cache<String, String> reminders;
  private final ClusterView view;
  private final EngineRuntime runtime;

  /** For CDI's client proxy only. */
  protected ClusterStatus() {
    this(null, null, null);
  }

  @Inject
  public ClusterStatus(
      @RemindersCache Cache<String, String> reminders, ClusterView view, EngineRuntime runtime) {
    this.reminders = reminders;
    this.view = view;
    this.runtime = runtime;
  }

  /**
   * The node that fires this reminder in the topology installed now: the primary owner of its
   * segment, or a stand-in while that member's engine is not running (CacheOwnership); it fires
   * only if one of its deployments serves the namespace.
   */
  public String ownerOf(String namespace, String key) {
    return firing().primaryOwnerOf(ReminderId.of(namespace, key).cacheKey());
  }

  private CacheOwnership firing() {
    return new CacheOwnership(reminders, runtime::engineReady);
  }

  public ClusterSnapshot snapshot() {
    // the primary owners exactly as firing decides them, so the view never names another node;
    // read live at every call (cheap), so a leave or a join shows at once
    List<String> owners = firing().primaryOwners();
    KeyIndex replica = runtime.engine().keyIndex();
    long[] liveBySegment = replica.liveBySegment();
    Map<String, long[]> armed = new LinkedHashMap<>();
    for (Address member :
        reminders.getAdvancedCache().getDistributionManager().getCacheTopology().getMembers()) {
      armed.put(member.toString(), new long[1]);
    }
    for (int segment = 0; segment < owners.size() && segment < liveBySegment.length; segment++) {
      long[] count = armed.get(owners.get(segment));
      if (count != null) {
        count[0] += liveBySegment[segment];
      }
    }
    List<ClusterSnapshot.Member> members = new ArrayList<>();
    armed.forEach(
        (name, count) ->
            members.add(
                new ClusterSnapshot.Member(name, Collections.frequency(owners, name), count[0])));
    List<String> viewMembers = view.members();
    String coordinator = viewMembers.isEmpty() ? view.nodeName() : viewMembers.get(0);
    return new ClusterSnapshot(
        view.nodeName(), coordinator, members, owners, replica.liveByNamespace());
  }
}
