package io.belfry.reminders.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.engine.LoopbackJGroups;
import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.infinispan.Cache;
import org.infinispan.configuration.cache.CacheMode;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.context.Flag;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.protostream.types.java.CommonTypesSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grouped writes ({@link ReminderStore#writeTogether}) on three in-JVM members of a replicated
 * cache with file stores, the function found by each member's marshaller as on WildFly: each write
 * of a group wins or loses on its own, a group waits for its command, and every replica ends with
 * what the primary owner decided.
 */
class GroupedWritesTest {

  private static final String NAMESPACE = "grouped";

  private final List<DefaultCacheManager> managers = new ArrayList<>();

  @BeforeEach
  void groupsOn() {
    System.setProperty(GroupedWrites.ENABLED, "true"); // off by default: see GroupedWrites.ENABLED
  }

  @AfterEach
  void stop() {
    System.clearProperty(GroupedWrites.ENABLED);
    managers.forEach(DefaultCacheManager::stop);
  }

  private List<Cache<String, String>> members(Path dir, int count) throws InterruptedException {
    int[] ports = LoopbackJGroups.freePorts(count);
    List<Cache<String, String>> caches = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Path home = dir.resolve("m" + i);
      caches.add(
          start(
              LoopbackJGroups.member(home, "grouped-" + ports[0], "m" + i, ports[i], ports), home));
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (caches.get(0).getAdvancedCache().getRpcManager().getMembers().size() < count) {
      assertThat(System.nanoTime()).as("the members form a cluster").isLessThan(deadline);
      Thread.sleep(50);
    }
    return caches;
  }

  private Cache<String, String> start(GlobalConfigurationBuilder global, Path home) {
    ConfigurationBuilder cache = new ConfigurationBuilder();
    cache.clustering().cacheMode(CacheMode.REPL_SYNC).remoteTimeout(15, TimeUnit.SECONDS);
    LoopbackJGroups.fileStore(cache, home);
    DefaultCacheManager manager = new DefaultCacheManager(global.build());
    managers.add(manager);
    manager.defineConfiguration("reminders", cache.build());
    return manager.getCache("reminders");
  }

  /** The store of member 0, its replicas taken as settled at once (no settling window). */
  private static InfinispanReminderStore storeOf(Cache<String, String> cache) {
    return new InfinispanReminderStore(cache, key -> false, 0);
  }

  private static ReminderRecord live(ReminderId id, long version) {
    return VersionMergeTest.live(id, version);
  }

  private static long versionOn(Cache<String, String> member, ReminderId id) {
    String value = member.getAdvancedCache().withFlags(Flag.CACHE_MODE_LOCAL).get(id.cacheKey());
    return ReminderCodec.decode(id, CacheValues.fromCache(value)).version();
  }

  @Test
  void eachWriteOfAGroupWinsOrLosesOnItsOwn_andEveryReplicaHoldsWhatWon(@TempDir Path dir)
      throws InterruptedException {
    List<Cache<String, String>> members = members(dir, 3);
    InfinispanReminderStore store = storeOf(members.get(0));
    int keys = GroupedWrites.GROUP + 88; // two commands: a full group, then the rest
    List<ReminderId> ids = new ArrayList<>();
    for (int i = 0; i < keys; i++) {
      ids.add(ReminderId.of(NAMESPACE, "k" + i)); // primary owners spread over the members
    }

    List<CompletionStage<Optional<StoredReminder>>> sets = new ArrayList<>();
    store.writeTogether(
        () -> {
          ids.forEach(id -> sets.add(store.putIfAbsentAsync(live(id, 10))));
          assertThat(sets.get(0).toCompletableFuture())
              .as("the full first group went when the next write came")
              .isDone();
          assertThat(sets.get(keys - 1).toCompletableFuture())
              .as("the open group waits for the end of writeTogether")
              .isNotDone();
        });
    assertThat(sets).allSatisfy(set -> assertThat(set.toCompletableFuture().join()).isEmpty());

    List<StoredReminder> read = ids.stream().map(id -> store.get(id).orElseThrow()).toList();
    // another member moves one reminder on after it was read: that write must lose, alone
    ReminderId raced = ids.get(7);
    members
        .get(1)
        .put(raced.cacheKey(), CacheValues.toCache(ReminderCodec.encode(live(raced, 12))));
    List<CompletionStage<Boolean>> replaces = new ArrayList<>();
    List<CompletionStage<Optional<StoredReminder>>> again = new ArrayList<>();
    store.writeTogether(
        () -> {
          for (StoredReminder stored : read) {
            replaces.add(store.replaceAsync(stored, live(stored.record().id(), 11)));
          }
        });
    store.writeTogether(() -> again.add(store.putIfAbsentAsync(live(ids.get(3), 13))));

    for (int i = 0; i < keys; i++) {
      assertThat(replaces.get(i).toCompletableFuture().join())
          .as("replace of %s", ids.get(i))
          .isEqualTo(i != 7);
    }
    assertThat(again.get(0).toCompletableFuture().join())
        .as("a set of a key that exists loses to what is there")
        .hasValueSatisfying(there -> assertThat(there.record().version()).isEqualTo(11));
    for (Cache<String, String> member : members) {
      for (ReminderId id : ids) {
        assertThat(versionOn(member, id))
            .as("%s on %s", id, member.getCacheManager().getAddress())
            .isEqualTo(id.equals(raced) ? 12 : 11);
      }
    }
  }

  @Test
  void aMarshallerWithoutTheFunction_writesKeyByKey(@TempDir Path dir) {
    int port = LoopbackJGroups.freePort();
    GlobalConfigurationBuilder global =
        LoopbackJGroups.member(dir, "ungrouped-" + port, "m0", port, port);
    // an explicit initializer list: the ServiceLoader, which finds the function's, is not asked
    global.serialization().addContextInitializer(new CommonTypesSchema());
    Cache<String, String> cache = start(global, dir);

    assertThat(GroupedWrites.on(cache.getAdvancedCache())).isEmpty();
    InfinispanReminderStore store = storeOf(cache);
    ReminderId id = ReminderId.of(NAMESPACE, "alone");
    List<CompletionStage<Optional<StoredReminder>>> sets = new ArrayList<>();
    store.writeTogether(() -> sets.add(store.putIfAbsentAsync(live(id, 10))));
    assertThat(sets.get(0).toCompletableFuture().join()).isEmpty();
    assertThat(store.get(id))
        .hasValueSatisfying(s -> assertThat(s.record().version()).isEqualTo(10));
  }

  @Test
  void theSystemPropertyTurnsGroupsOffOnARunningStore_offByDefault_andOnlyTrueOrFalseIsAValue(
      @TempDir Path dir) throws Exception {
    Cache<String, String> cache = members(dir, 1).get(0);
    InfinispanReminderStore store = storeOf(cache);
    System.setProperty(GroupedWrites.ENABLED, "false");
    assertWritesGoAlone(store, "off");
    System.clearProperty(GroupedWrites.ENABLED);
    assertWritesGoAlone(store, "by-default");

    System.setProperty(GroupedWrites.ENABLED, "no");
    assertThatThrownBy(() -> GroupedWrites.on(cache.getAdvancedCache()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(GroupedWrites.ENABLED);
  }

  /** A write inside writeTogether completes before the block ends: it was not held for a group. */
  private static void assertWritesGoAlone(InfinispanReminderStore store, String key) {
    List<Optional<StoredReminder>> written = new ArrayList<>();
    store.writeTogether(
        () -> {
          // grouped, this stage would complete only after the block: the wait would time out
          CompletionStage<Optional<StoredReminder>> set =
              store.putIfAbsentAsync(live(ReminderId.of(NAMESPACE, key), 10));
          try {
            written.add(set.toCompletableFuture().get(10, TimeUnit.SECONDS));
          } catch (Exception e) {
            throw new AssertionError("a write inside writeTogether waited for the block", e);
          }
        });
    assertThat(written).containsExactly(Optional.empty());
  }
}
