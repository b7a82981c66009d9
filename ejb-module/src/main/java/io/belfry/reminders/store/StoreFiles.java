package io.belfry.reminders.store;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.infinispan.Cache;
import org.infinispan.configuration.cache.StoreConfiguration;
import org.infinispan.persistence.PersistenceUtil;
import org.infinispan.persistence.sifs.configuration.SoftIndexFileStoreConfiguration;
import org.jboss.logging.Logger;

/**
 * Files Belfry keeps beside a cache's file store: in the store's own directory (beside its {@code
 * data} and {@code index}), so that they go with the store. A store deleted takes them along; one
 * replaced by a backup brings the backup's, or none.
 */
final class StoreFiles {

  private static final Logger LOG = Logger.getLogger(StoreFiles.class);

  private StoreFiles() {}

  /**
   * The file {@code name} beside {@code cache}'s store. Empty for a cache whose entries are not all
   * in one Soft-Index file store (WildFly's {@code store=file}), or whose store has no place on
   * disk this node can name.
   */
  static Optional<Path> beside(Cache<?, ?> cache, String name) {
    List<StoreConfiguration> stores = cache.getCacheConfiguration().persistence().stores();
    if (stores.size() != 1 || !(stores.get(0) instanceof SoftIndexFileStoreConfiguration files)) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          PersistenceUtil.getQualifiedLocation(
              cache.getCacheManager().getCacheManagerConfiguration(),
              files.dataLocation(),
              cache.getName(),
              name));
    } catch (RuntimeException e) {
      LOG.debugf(e, "BELFRY-0035 No place for %s beside the store of %s", name, cache.getName());
      return Optional.empty();
    }
  }
}
