package io.belfry.cachefunctions.container;

import org.infinispan.factories.DataContainerFactory;

/**
 * Infinispan's own data container factory, under a name of Belfry's module so that {@link
 * BelfryCacheModule} can put it back in front of WildFly's for the caches of the container that
 * names this module. It adds nothing: where memory is bounded it builds Infinispan's {@code
 * BoundedSegmentedDataContainer}, whose per-segment maps lose an entry when its eviction does.
 *
 * <p>Why not WildFly's: WildFly 39 (its clustering 9.0.2) builds its own copy of that container for
 * every heap cache with a bound, and in that version the copy's eviction listener never removes the
 * evicted entry from the per-segment maps. So every entry ever written stays in heap whatever the
 * bound (measured: 2,483,007 entries held on each of three nodes bounded at 100,000;
 * docs/performance/scale.md), and a walk of the segments (state transfer to a joiner, Belfry's
 * recovery) still meets an entry that was evicted and then removed.
 */
public class InfinispanDataContainerFactory extends DataContainerFactory {}
