package io.belfry.reminders.placement;

import java.util.BitSet;

/**
 * Who fires a key: the primary owner of the key's segment in the current topology. Answers from
 * this node's view of the cluster, locally and cheaply.
 */
public interface Ownership {

  /** Whether this node is, right now, the primary owner of {@code cacheKey}'s segment. */
  boolean isPrimaryOwner(String cacheKey);

  /** The segment of {@code cacheKey}; fixed for the life of the cache, whatever the topology. */
  int segmentOf(String cacheKey);

  /** How many segments the cache has. */
  int segmentCount();

  /**
   * The segments this node fires in the current topology (a fresh copy): those it is primary owner
   * of, or stands in for (see {@link CacheOwnership}).
   */
  BitSet primarySegments();

  /**
   * The segments the topology installed now makes this node primary owner of, whether or not it
   * fires them yet: what a joiner that holds back will own once it announces itself.
   */
  default BitSet topologyPrimarySegments() {
    return primarySegments();
  }

  /**
   * Whether no rebalance is under way: the primary owners the topology names now are those it will
   * keep. While a joiner receives state, Infinispan makes it a member of the read consistent hash
   * before it makes it primary owner of its share.
   */
  default boolean topologySettled() {
    return true;
  }

  /** This node's name in the cluster, e.g. as the holder of a delivery's lease. */
  String localNode();

  /**
   * Whether this node holds the whole replica in the topology installed now: false while it joins
   * (or, after a merge, rejoins) and state is still being transferred to it. Infinispan applies
   * transferred entries without notifying listeners, so what a node learned from its change feed
   * before is not complete then.
   */
  default boolean holdsWholeReplica() {
    return true;
  }
}
