package io.belfry.reminders.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.engine.LoopbackJGroups;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.manager.DefaultCacheManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where {@link PlainForm} looks for entries in the earlier form: memory alone when memory holds the
 * whole file store, memory and the store when memory is bounded. An Integer key stands for a
 * wrapped one (any key that is not a String); an entry evicted from memory but kept in the store
 * shows which of the two a walk read. And the marker that spares later starts the walk.
 */
class PlainFormTest {

  private static final String CACHE = "reminders";

  @TempDir Path home;

  @Test
  void wrappedKeys_whenMemoryHoldsEveryEntry_readsMemoryAndNotTheStore() throws Exception {
    try (DefaultCacheManager manager = node(Long.MAX_VALUE)) {
      AdvancedCache<Object, Object> cache = raw(manager);
      cache.put(1, "in memory");
      cache.put(2, "on disk only");
      cache.put("plain", "a plain key");
      cache.evict(2);

      assertThat(PlainForm.wrappedKeys(cache)).containsExactly(1);
      assertThat(cache.get(2)).as("still in the store").isEqualTo("on disk only");
    }
  }

  @Test
  void wrappedKeys_afterARestart_findsWhatTheStoreHeldThroughPreload() throws Exception {
    try (DefaultCacheManager manager = node(Long.MAX_VALUE)) {
      raw(manager).put(1, "written before the restart");
      raw(manager).put("plain", "a plain key");
    }
    try (DefaultCacheManager manager = node(Long.MAX_VALUE)) {
      assertThat(PlainForm.wrappedKeys(raw(manager))).containsExactly(1);
    }
  }

  @Test
  void wrappedKeys_whenMemoryIsBounded_readsTheStoreToo() throws Exception {
    try (DefaultCacheManager manager = node(1_000)) {
      AdvancedCache<Object, Object> cache = raw(manager);
      cache.put(1, "in memory");
      cache.put(2, "on disk only");
      cache.evict(2);

      assertThat(PlainForm.wrappedKeys(cache)).containsExactlyInAnyOrder(1, 2);
    }
  }

  @Test
  void migrate_marksTheStoreLooked_andLaterStartsSkipTheLook() throws Exception {
    try (DefaultCacheManager manager = node(1_000)) {
      AdvancedCache<String, String> plain = PlainForm.of(manager.getCache(CACHE));
      Path marker = PlainForm.movedMarker(plain).orElseThrow();
      assertThat(marker.getParent()).as("beside the store's data").isEqualTo(storeRoot());
      assertThat(marker).doesNotExist();

      PlainForm.migrate(manager.getCache(CACHE), plain);

      assertThat(marker).exists();
    }
    try (DefaultCacheManager manager = node(1_000)) {
      AtomicInteger looks = new AtomicInteger();
      int folded = PlainForm.onceForTheStore(manager.getCache(CACHE), looks::incrementAndGet);

      assertThat(looks).as("the store is not read again").hasValue(0);
      assertThat(folded).isZero();
    }
  }

  @Test
  void onceForTheStore_looksAgainAtEachStartUntilALookEnds() throws Exception {
    try (DefaultCacheManager manager = node(1_000)) {
      assertThatThrownBy(
              () ->
                  PlainForm.onceForTheStore(
                      manager.getCache(CACHE),
                      () -> {
                        throw new IllegalStateException("the node stopped during the look");
                      }))
          .isInstanceOf(IllegalStateException.class);
    }
    try (DefaultCacheManager manager = node(1_000)) {
      AtomicInteger looks = new AtomicInteger();
      PlainForm.onceForTheStore(manager.getCache(CACHE), looks::incrementAndGet);
      PlainForm.onceForTheStore(manager.getCache(CACHE), looks::incrementAndGet);

      assertThat(looks).as("looked at this start, not at the next").hasValue(1);
    }
  }

  @Test
  void movedMarker_goesWithTheStore() throws Exception {
    try (DefaultCacheManager manager = node(1_000)) {
      PlainForm.migrate(manager.getCache(CACHE), PlainForm.of(manager.getCache(CACHE)));
      assertThat(PlainForm.movedMarker(manager.getCache(CACHE)).orElseThrow()).exists();
    }
    // an operator clears the node's store (or puts an earlier build's backup in its place)
    try (Stream<Path> files = Files.walk(storeRoot())) {
      files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
    }
    try (DefaultCacheManager manager = node(1_000)) {
      assertThat(PlainForm.movedMarker(manager.getCache(CACHE)).orElseThrow()).doesNotExist();
    }
  }

  @Test
  void movedMarker_noneForACacheWithoutAFileStore() throws Exception {
    try (DefaultCacheManager manager = new DefaultCacheManager()) {
      manager.defineConfiguration(CACHE, new ConfigurationBuilder().build());
      assertThat(PlainForm.movedMarker(manager.getCache(CACHE))).isEmpty();
    }
  }

  /** Where Infinispan keeps the cache's store: its data and index directories. */
  private Path storeRoot() {
    return home.resolve("data").resolve(CACHE);
  }

  /** One local node with the file store WildFly gives Belfry's cache, memory bounded as given. */
  private DefaultCacheManager node(long memoryEntries) {
    GlobalConfigurationBuilder global = new GlobalConfigurationBuilder().nonClusteredDefault();
    global.globalState().enabled(false);
    ConfigurationBuilder cache = new ConfigurationBuilder();
    cache.memory().maxCount(memoryEntries);
    LoopbackJGroups.fileStore(cache, home);
    DefaultCacheManager manager = new DefaultCacheManager(global.build());
    manager.defineConfiguration(CACHE, cache.build());
    return manager;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static AdvancedCache<Object, Object> raw(DefaultCacheManager manager) {
    Cache cache = manager.getCache(CACHE);
    return cache.getAdvancedCache();
  }
}
