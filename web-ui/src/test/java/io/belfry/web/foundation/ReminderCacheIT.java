package io.belfry.web.foundation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.belfry.audit.AuditDatabase;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.config.RemindersCache;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.infinispan.Cache;
import org.infinispan.commons.util.IntSets;
import org.infinispan.configuration.cache.CacheMode;
import org.infinispan.configuration.cache.Configuration;
import org.infinispan.container.DataContainer;
import org.infinispan.container.impl.InternalDataContainer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** In the server: what server-config provides reaches a deployment as Belfry needs it. */
@ExtendWith(ArquillianExtension.class)
class ReminderCacheIT {

  @Deployment
  static WebArchive deployment() {
    return Deployments.belfryWar().addClass(ReminderCacheIT.class);
  }

  private static final String NAMESPACE = "it-bounded";

  @Inject @RemindersCache Cache<String, String> reminders;

  @Inject Reminders api;

  @Resource(lookup = AuditDatabase.DATASOURCE)
  DataSource belfryDs;

  @Test
  void remindersCache_injected_isReplicatedSynchronously() {
    Configuration configuration = reminders.getCacheConfiguration();
    assertEquals("reminders", reminders.getName());
    assertEquals(CacheMode.REPL_SYNC, configuration.clustering().cacheMode());
  }

  @Test
  void remindersCache_injected_writesThroughToAPersistentStore() {
    Configuration configuration = reminders.getCacheConfiguration();
    assertFalse(configuration.persistence().stores().isEmpty(), "a persistent store");
    var store = configuration.persistence().stores().get(0);
    assertFalse(configuration.persistence().passivation(), "write-through, not passivation");
    assertFalse(store.purgeOnStartup(), "never purged at start");
    assertTrue(store.preload(), "preloaded at start");
  }

  @Test
  void remindersCache_memoryBounded_remindersOnDiskOnlyReadBackAndCancel() {
    // the test server keeps 100 entries in memory (arquillian.xml); by default there is no bound
    Configuration configuration = reminders.getCacheConfiguration();
    assertTrue(configuration.memory().isEvictionEnabled(), "a bounded number in memory");
    assertEquals(100, configuration.memory().maxCount());

    String prefix = "bounded-" + UUID.randomUUID() + "-";
    Instant due = Instant.now().plus(Duration.ofHours(1));
    List<ReminderRequest> batch = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      batch.add(ReminderRequest.key(prefix + i).namespace(NAMESPACE).at(due).build());
    }
    api.putAll(batch);
    // The cache evicts in Caffeine's maintenance, which runs after writes, on another thread. It
    // was seen to stop short of the bound for 30 s with nothing else touching the cache (CI runs:
    // 101-188 entries after a batch of 300), and nothing a deployment can call forces it: the
    // container's cleanUp fails with NoClassDefFoundError for Caffeine's Cache, whichever module
    // the deployment adds (CI rehearsals of 2026-11-29). So the test waits up to 30 s for the
    // bound, and requires that entries went to disk only (fewer in memory than written), which an
    // unbounded cache never does; the read-back below then reads those from the file store.
    DataContainer<?, ?> memory = reminders.getAdvancedCache().getDataContainer();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (memory.size() > 100 && System.nanoTime() < deadline) {
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
    int held = memory.size();
    assertTrue(
        held < 300, "some of the 300 entries on disk only, not in memory: " + held + " in memory");
    // An evicted entry must leave the per-segment maps too, which state transfer and recovery walk:
    // WildFly 39's own bounded container kept every entry written there (so the bound never bounded
    // the heap), and Belfry's server module puts Infinispan's container back (BelfryCacheModule).
    int walked = 0;
    var segments = IntSets.immutableRangeSet(configuration.clustering().hash().numSegments());
    for (var it = ((InternalDataContainer<?, ?>) memory).iteratorIncludingExpired(segments);
        it.hasNext();
        it.next()) {
      walked++;
    }
    assertTrue(
        walked < 300,
        "evicted entries gone from the segments' maps too: "
            + walked
            + " walked, "
            + memory.size()
            + " in memory, container "
            + memory.getClass().getName());
    for (int i = 0; i < 300; i++) {
      String key = prefix + i;
      assertEquals(key, api.get(NAMESPACE, key).orElseThrow(() -> new AssertionError(key)).key());
    }
    for (int i = 0; i < 300; i++) {
      api.cancel(NAMESPACE, prefix + i);
    }
    for (int i = 0; i < 300; i++) {
      assertTrue(api.get(NAMESPACE, prefix + i).isEmpty(), "cancelled: " + prefix + i);
    }
  }

  @Test
  void remindersCache_conditionalReplace_matchesStringValuesByContent() {
    // Belfry's compare-and-set firing relies on this: the expected value arrives as a copy
    // (marshalled from another node), so equality must be by content. byte[] values compare by
    // identity in WildFly's cache and would never match; Strings do.
    String key = "it:" + UUID.randomUUID();
    reminders.put(key, "version-1");
    assertTrue(reminders.replace(key, new String("version-1"), "version-2"));
    assertFalse(reminders.replace(key, "version-1", "version-3"), "a stale expectation loses");
    assertEquals("version-2", reminders.get(key));
    reminders.remove(key);
  }

  @Test
  void remindersCache_byteArrayValues_matchByContentInThePlainForm() {
    // Through WildFly's per-deployment view (builds before 2026-12-01) a byte[] copy never matched
    // in a conditional replace; in the cache's own storage type (PlainForm) it matches by content,
    // as a String does. Belfry's values stay Strings all the same (docs/server-configuration.md).
    @SuppressWarnings({"unchecked", "rawtypes"})
    Cache<String, Object> raw = (Cache) reminders;
    String key = "it:" + UUID.randomUUID();
    try {
      raw.put(key, new byte[] {1, 2, 3});
      assertTrue(raw.replace(key, new byte[] {1, 2, 3}, new byte[] {4}));
      assertFalse(raw.replace(key, new byte[] {1, 2, 3}, new byte[] {5}), "a stale copy loses");
    } finally {
      raw.remove(key);
    }
  }

  @Test
  void belfryDs_executesSql() throws Exception {
    try (Connection connection = belfryDs.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IF NOT EXISTS it_probe (id VARCHAR(64) PRIMARY KEY)");
      String id = UUID.randomUUID().toString();
      statement.executeUpdate("INSERT INTO it_probe (id) VALUES ('" + id + "')");
      try (ResultSet rs =
          statement.executeQuery("SELECT COUNT(*) FROM it_probe WHERE id = '" + id + "'")) {
        assertTrue(rs.next());
        assertEquals(1, rs.getInt(1));
      }
    }
  }
}
