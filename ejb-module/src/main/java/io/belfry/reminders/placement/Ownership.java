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

  /** The segments this node is primary owner of in the current topology (a fresh copy). */
  BitSet primarySegments();

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
