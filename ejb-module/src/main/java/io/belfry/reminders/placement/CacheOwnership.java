package io.belfry.reminders.placement;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import org.infinispan.Cache;
import org.infinispan.distribution.DistributionManager;
import org.infinispan.distribution.LocalizedCacheTopology;
import org.infinispan.encoding.DataConversion;

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
 */
public final class CacheOwnership implements Ownership {

  private final DistributionManager distribution;
  private final DataConversion keys;
  private final String localNode;

  public CacheOwnership(Cache<String, String> cache) {
    Objects.requireNonNull(cache, "cache");
    this.distribution =
        Objects.requireNonNull(
            cache.getAdvancedCache().getDistributionManager(),
            "the reminders cache must be clustered (REPL_SYNC)");
    this.keys = cache.getAdvancedCache().getKeyDataConversion();
    this.localNode = String.valueOf(cache.getCacheManager().getAddress());
  }

  @Override
  public String localNode() {
    return localNode;
  }

  @Override
  public boolean isPrimaryOwner(String cacheKey) {
    return topology().getDistribution(keys.toStorage(cacheKey)).isPrimary();
  }

  @Override
  public int segmentOf(String cacheKey) {
    return topology().getSegment(keys.toStorage(cacheKey));
  }

  /**
   * For each segment, in order, the node that is its primary owner in the topology installed now.
   */
  public List<String> primaryOwners() {
    LocalizedCacheTopology topology = topology();
    List<String> owners = new ArrayList<>(topology.getNumSegments());
    for (int segment = 0; segment < topology.getNumSegments(); segment++) {
      owners.add(String.valueOf(topology.getSegmentDistribution(segment).primary()));
    }
    return owners;
  }

  /** The node that is primary owner of this key in the topology installed now. */
  public String primaryOwnerOf(String cacheKey) {
    return String.valueOf(topology().getDistribution(keys.toStorage(cacheKey)).primary());
  }

  @Override
  public int segmentCount() {
    return topology().getNumSegments();
  }

  @Override
  public BitSet primarySegments() {
    BitSet segments = new BitSet(topology().getNumSegments());
    topology().getLocalPrimarySegments().forEach((int segment) -> segments.set(segment));
    return segments;
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
