package io.belfry.cachefunctions.store;

import org.infinispan.configuration.cache.PersistenceConfigurationBuilder;
import org.infinispan.persistence.sifs.configuration.SoftIndexFileStoreConfigurationBuilder;

/**
 * The Soft-Index file store that WildFly's {@code store=file} configures (same class, same files
 * under the container's global state location), but forcing each write to disk before it is
 * acknowledged: Infinispan's {@code sync-writes}. WildFly 39's file store resource has no attribute
 * for it, and the {@code properties} of a store reach only the store's property map, which this
 * store does not read. So {@code server-config/cluster} names this builder as a {@code
 * store=custom}'s {@code class} when {@code BELFRY_STORE_SYNC_WRITES=true}: WildFly loads it
 * through the {@code belfry} container's modules, which include this one (docs/operations.md, "A
 * file store that forces each write to disk").
 */
public class SyncWritesFileStoreBuilder extends SoftIndexFileStoreConfigurationBuilder {

  /** Called by Infinispan, which adds a store by the class of its builder. */
  public SyncWritesFileStoreBuilder(PersistenceConfigurationBuilder builder) {
    super(builder);
    syncWrites(true);
  }
}
