package io.belfry.reminders.placement;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.infinispan.Cache;
import org.infinispan.distribution.DistributionManager;
import org.infinispan.distribution.LocalizedCacheTopology;
import org.infinispan.encoding.DataConversion;
import org.infinispan.remoting.transport.Address;

/**
 * {@link Ownership} from the cache's current topology: the segment comes from the cache's key
 * partitioner, primary ownership from the consistent hash. Always reads the topology installed now,
 * so a node that just lost a segment stops claiming it at once.
 *
 * <p>Segments are computed on the key in its storage form, as Infinispan does. In WildFly the cache
 * a deployment sees encodes keys (marshalled per class loader) before storing them, so the
 * partitioner applied to the plain {@code String} would name another segment than the one the entry
 * is stored, iterated ({@code filterKeySegments}) and rebalanced under; a node would then scan the
 * wrong entries for the segments it gains.
 *
 * <p><b>Ready engines.</b> Given which members run an engine ({@link ReadyEngines}), a segment
 * whose primary owner has none yet is fired by the first member of the read consistent hash that
 * has one (every member computes the same one from the same topology and roster), and by the
 * primary owner when no member's engine is ready. Infinispan makes a joiner primary owner as soon
 * as it holds a segment, which with a small store is seconds before its deployment has started its
 * engine. This node asks the roster about itself too: a joiner that holds back counts as not ready
 * on itself ({@link ReadyEngines}). Without a roster every member counts as ready: the primary
 * owner fires.
 */
public final class CacheOwnership implements Ownership {

  private final DistributionManager distribution;
  private final DataConversion keys;
  private final String localNode;
  private final Address localAddress;
  private final Predicate<Address> engineReady;

  /** Ownership where every member fires its primary segments (no roster of engines). */
  public CacheOwnership(Cache<String, String> cache) {
    this(cache, member -> true);
  }

  /**
   * Ownership that passes a segment to its primary owner only once {@code engineReady} says that
   * member's engine runs.
   */
  public CacheOwnership(Cache<String, String> cache, Predicate<Address> engineReady) {
    Objects.requireNonNull(cache, "cache");
    this.distribution =
        Objects.requireNonNull(
            cache.getAdvancedCache().getDistributionManager(),
            "the reminders cache must be clustered (REPL_SYNC)");
    this.keys = cache.getAdvancedCache().getKeyDataConversion();
    this.localAddress = cache.getCacheManager().getAddress();
    this.localNode = String.valueOf(localAddress);
    this.engineReady = Objects.requireNonNull(engineReady, "engineReady");
  }

  @Override
  public String localNode() {
    return localNode;
  }

  @Override
  public boolean isPrimaryOwner(String cacheKey) {
    LocalizedCacheTopology topology = topology();
    Address primary = topology.getDistribution(keys.toStorage(cacheKey)).primary();
    return localAddress.equals(firingOwner(primary, topology, new Address[1]));
  }

  @Override
  public int segmentOf(String cacheKey) {
    return topology().getSegment(keys.toStorage(cacheKey));
  }

  /**
   * For each segment, in order, the node that fires it in the topology installed now: its primary
   * owner, or the stand-in while that member's engine has not announced itself.
   */
  public List<String> primaryOwners() {
    LocalizedCacheTopology topology = topology();
    List<String> owners = new ArrayList<>(topology.getNumSegments());
    Address[] fallback = new Address[1];
    for (int segment = 0; segment < topology.getNumSegments(); segment++) {
      Address primary = topology.getSegmentDistribution(segment).primary();
      owners.add(String.valueOf(firingOwner(primary, topology, fallback)));
    }
    return owners;
  }

  /** The node that fires this key in the topology installed now (as {@link #primaryOwners}). */
  public String primaryOwnerOf(String cacheKey) {
    LocalizedCacheTopology topology = topology();
    Address primary = topology.getDistribution(keys.toStorage(cacheKey)).primary();
    return String.valueOf(firingOwner(primary, topology, new Address[1]));
  }

  @Override
  public BitSet topologyPrimarySegments() {
    return localSegments(false);
  }

  @Override
  public int segmentCount() {
    return topology().getNumSegments();
  }

  @Override
  public BitSet primarySegments() {
    return localSegments(true);
  }

  /**
   * The segments this node fires ({@code firing}), or is primary owner of, in the topology
   * installed now.
   */
  private BitSet localSegments(boolean firing) {
    LocalizedCacheTopology topology = topology();
    BitSet segments = new BitSet(topology.getNumSegments());
    Address[] fallback = new Address[1];
    for (int segment = 0; segment < topology.getNumSegments(); segment++) {
      Address primary = topology.getSegmentDistribution(segment).primary();
      Address owner = firing ? firingOwner(primary, topology, fallback) : primary;
      if (localAddress.equals(owner)) {
        segments.set(segment);
      }
    }
    return segments;
  }

  /**
   * The member that fires a segment whose primary owner is {@code primary}: the primary owner if
   * its engine is ready, else the first member with a ready engine (the primary owner again when
   * there is none).
   *
   * @param fallback a one-element cache of that first member across calls on one topology
   */
  private Address firingOwner(
      Address primary, LocalizedCacheTopology topology, Address[] fallback) {
    if (primary == null || engineReady.test(primary)) {
      return primary;
    }
    if (fallback[0] == null) {
      fallback[0] = firstReadyMember(topology);
    }
    return fallback[0] != null ? fallback[0] : primary;
  }

  /**
   * The first member holding the whole replica whose engine is ready, or null when there is none:
   * then the primary owner fires once its engine starts.
   */
  private Address firstReadyMember(LocalizedCacheTopology topology) {
    for (Address member : topology.getReadConsistentHash().getMembers()) {
      if (engineReady.test(member)) {
        return member;
      }
    }
    return null;
  }

  @Override
  public boolean topologySettled() {
    LocalizedCacheTopology topology = topology();
    return topology != null && topology.getPendingCH() == null;
  }

  /** A member of the read consistent hash: in a replicated cache, it reads every entry locally. */
  @Override
  public boolean holdsWholeReplica() {
    LocalizedCacheTopology topology = topology();
    return topology != null
        && topology.getReadConsistentHash().getMembers().contains(topology.getLocalAddress());
  }

  private LocalizedCacheTopology topology() {
    return distribution.getCacheTopology();
  }
}
