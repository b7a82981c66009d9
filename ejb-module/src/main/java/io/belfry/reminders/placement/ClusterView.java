package io.belfry.reminders.placement;

import io.belfry.reminders.config.RemindersCache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.infinispan.Cache;
import org.infinispan.configuration.cache.Configuration;
import org.infinispan.distribution.DistributionManager;
import org.infinispan.distribution.LocalizedCacheTopology;
import org.infinispan.manager.EmbeddedCacheManager;
import org.infinispan.remoting.transport.Address;

/** What this node sees of the cluster that holds the reminders cache. Read-only, cheap to call. */
@ApplicationScoped
public class ClusterView {

  private final Cache<String, String> reminders;

  /** For CDI's client proxy only. */
  protected ClusterView() {
    this(null);
  }

  @Inject
  public ClusterView(@RemindersCache Cache<String, String> reminders) {
    this.reminders = reminders;
  }

  /** This node's name: WildFly's {@code jboss.node.name}, else the cluster address. */
  public String nodeName() {
    String configured = System.getProperty("jboss.node.name");
    if (configured != null && !configured.isBlank()) {
      return configured;
    }
    Address address = cacheManager().getAddress();
    return address == null ? "local" : address.toString();
  }

  /** Members of the current cluster view, coordinator first; empty when not clustered. */
  public List<String> members() {
    List<Address> members = cacheManager().getMembers();
    return members == null ? List.of() : members.stream().map(Address::toString).toList();
  }

  /** The reminders cache's clustering mode, e.g. {@code REPL_SYNC}. */
  public String cacheMode() {
    return configuration().clustering().cacheMode().name();
  }

  /**
   * The reminders cache's availability on this node: {@code AVAILABLE}, or {@code DEGRADED_MODE}
   * when this node is in a minority partition (the cache then denies reads and writes here).
   */
  public String availability() {
    return reminders.getAdvancedCache().getAvailability().name();
  }

  /**
   * Whether this node holds the whole replica: it reads every segment locally. False while a node
   * that joined is still receiving its state (its boot does not wait for that, see
   * docs/operations.md): it serves meanwhile, reading from the members that hold the entries, and
   * fires nothing, since it becomes a segment's primary owner only once it has the segment.
   */
  public boolean stateReceived() {
    DistributionManager distribution = reminders.getAdvancedCache().getDistributionManager();
    if (distribution == null) {
      return true; // a local cache: nothing to receive
    }
    LocalizedCacheTopology topology = distribution.getCacheTopology();
    return topology.isConnected()
        && topology.getLocalReadSegments().size() == topology.getNumSegments();
  }

  /** Whether the reminders cache writes through to a persistent store on this node. */
  public boolean persistent() {
    return !configuration().persistence().stores().isEmpty();
  }

  private Configuration configuration() {
    return reminders.getCacheConfiguration();
  }

  private EmbeddedCacheManager cacheManager() {
    return reminders.getCacheManager();
  }
}
