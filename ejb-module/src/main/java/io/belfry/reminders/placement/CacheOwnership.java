package io.belfry.reminders.placement;

import java.util.BitSet;
import java.util.Objects;
import org.infinispan.Cache;
import org.infinispan.distribution.DistributionManager;
import org.infinispan.distribution.LocalizedCacheTopology;

/**
 * {@link Ownership} from the cache's current topology: the segment comes from the cache's key
 * partitioner, primary ownership from the consistent hash. Always reads the topology installed now,
 * so a node that just lost a segment stops claiming it at once.
 */
public final class CacheOwnership implements Ownership {

  private final DistributionManager distribution;

  public CacheOwnership(Cache<String, String> cache) {
    Objects.requireNonNull(cache, "cache");
    this.distribution =
        Objects.requireNonNull(
            cache.getAdvancedCache().getDistributionManager(),
            "the reminders cache must be clustered (REPL_SYNC)");
  }

  @Override
  public boolean isPrimaryOwner(String cacheKey) {
    return topology().getDistribution(cacheKey).isPrimary();
  }

  @Override
  public int segmentOf(String cacheKey) {
    return topology().getSegment(cacheKey);
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

  private LocalizedCacheTopology topology() {
    return distribution.getCacheTopology();
  }
}
