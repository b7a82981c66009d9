package io.belfry.test;

import io.belfry.reminders.placement.Ownership;
import java.util.BitSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.infinispan.Cache;
import org.infinispan.commons.dataconversion.MediaType;
import org.infinispan.configuration.cache.CacheMode;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.manager.EmbeddedCacheManager;

/**
 * Reminders caches for tests: real Infinispan caches, local (one node, no JGroups, no file store),
 * storing keys and values encoded as WildFly's deployment-facing cache does. One cache manager
 * serves the whole JVM, because starting one costs far more than a cache; each {@link
 * VirtualBelfry} gets a cache of its own and removes it when closed.
 */
final class LocalReminderCache {

  private static final AtomicInteger CACHES = new AtomicInteger();

  private static EmbeddedCacheManager manager;

  private LocalReminderCache() {}

  /** A new, empty cache, its name unique in this JVM. */
  static Cache<String, String> create() {
    ConfigurationBuilder config = new ConfigurationBuilder();
    config.clustering().cacheMode(CacheMode.LOCAL);
    config.encoding().key().mediaType(MediaType.APPLICATION_PROTOSTREAM_TYPE);
    config.encoding().value().mediaType(MediaType.APPLICATION_PROTOSTREAM_TYPE);
    String name = "reminders-" + CACHES.incrementAndGet();
    EmbeddedCacheManager shared = manager();
    shared.defineConfiguration(name, config.build());
    return shared.getCache(name);
  }

  /** Stops {@code cache} and forgets its configuration. */
  static void remove(Cache<String, String> cache) {
    String name = cache.getName();
    cache.stop();
    manager().undefineConfiguration(name);
  }

  private static synchronized EmbeddedCacheManager manager() {
    if (manager == null) {
      GlobalConfigurationBuilder global = new GlobalConfigurationBuilder().nonClusteredDefault();
      global.cacheManagerName("belfry-test");
      global.globalState().enabled(false);
      manager = new DefaultCacheManager(global.build());
    }
    return manager;
  }

  /**
   * The ownership of a node alone: it is primary owner of everything, in one segment (a local cache
   * is not partitioned, so its scans ignore segments).
   */
  static final class SingleNode implements Ownership {

    static final String NAME = "belfry-test";

    @Override
    public boolean isPrimaryOwner(String cacheKey) {
      return true;
    }

    @Override
    public int segmentOf(String cacheKey) {
      return 0;
    }

    @Override
    public int segmentCount() {
      return 1;
    }

    @Override
    public BitSet primarySegments() {
      BitSet all = new BitSet(1);
      all.set(0);
      return all;
    }

    @Override
    public String localNode() {
      return NAME;
    }
  }
}
