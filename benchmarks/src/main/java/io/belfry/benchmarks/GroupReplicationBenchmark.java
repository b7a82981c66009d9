package io.belfry.benchmarks;

import io.belfry.cachefunctions.ConditionalWrite;
import io.belfry.cachefunctions.ConditionalWrites;
import io.belfry.reminders.engine.LoopbackJGroups;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.configuration.cache.CacheMode;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.context.Flag;
import org.infinispan.functional.FunctionalMap.ReadWriteMap;
import org.infinispan.functional.impl.FunctionalMapImpl;
import org.infinispan.functional.impl.ReadWriteMapImpl;
import org.infinispan.manager.DefaultCacheManager;

/**
 * What replicating a group of fires' commits costs, one command per key against one command per
 * group: three members of a REPL_SYNC cache with Soft-Index file stores in this JVM (Belfry's
 * in-JVM cluster shape), {@code keys} entries whose primary owner is member 0, and each round swaps
 * every entry's value for a new one, conditionally on the value it holds, group by group:
 *
 * <ul>
 *   <li><b>replace</b>: one asynchronous conditional {@code replace} per key, a group's issued
 *       before any is waited for (the engine's group commit);
 *   <li><b>evalMany</b>: one functional {@code ReadWriteMap.evalMany} per group of the engine's own
 *       {@link ConditionalWrite}, which swaps each value if it is the expected one (or already the
 *       new one: a command Infinispan retries after a topology change must not report its own write
 *       as lost), found by each member's marshaller through the ServiceLoader.
 * </ul>
 *
 * <p>Prints, per variant and group size, keys swapped per second and the process CPU per key (all
 * three members), and checks that every member ends with every key's last value. A measurement of
 * the mechanism only, without the rest of the engine. Arguments: [keys] [rounds per variant]
 * (default 20000, 3).
 */
public final class GroupReplicationBenchmark {

  private static final String CACHE = "reminders";

  /** About the size of an encoded one-shot reminder with a short payload. */
  private static final String PADDING = "x".repeat(140);

  private GroupReplicationBenchmark() {}

  public static void main(String[] args) throws Exception {
    int keys = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path home = Files.createTempDirectory("belfry-group-replication");
    int[] ports = LoopbackJGroups.freePorts(3);
    List<DefaultCacheManager> managers = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        managers.add(member(home.resolve("m" + i), i, ports));
      }
      List<Cache<String, String>> caches = new ArrayList<>();
      for (DefaultCacheManager manager : managers) {
        caches.add(manager.getCache(CACHE));
      }
      awaitMembers(caches.get(0), 3);
      AdvancedCache<String, String> cache =
          caches.get(0).getAdvancedCache().withFlags(Flag.SKIP_CACHE_LOAD);
      List<String> owned = keysOwnedByFirst(cache, keys);
      Map<String, String> values = new HashMap<>();
      for (List<String> keysOfChunk : groups(owned, 1_000)) {
        Map<String, String> chunk = new HashMap<>();
        for (String key : keysOfChunk) {
          chunk.put(key, value(key, 0));
        }
        cache.putAll(chunk);
        values.putAll(chunk);
      }
      ReadWriteMap<String, String> functional =
          ReadWriteMapImpl.create(FunctionalMapImpl.create(cache));
      int[] generation = {0};
      GroupSwap perKey = (ofGroup, current, next) -> replaceEach(cache, ofGroup, current, next);
      GroupSwap perGroup = (ofGroup, current, next) -> evalMany(functional, ofGroup, current, next);
      System.out.println("| variant | group | keys/s | CPU µs per key |");
      System.out.println("|---|---|---|---|");
      // the first pass of each warms the JIT and is not printed
      for (int round = 0; round <= rounds; round++) {
        for (int group : new int[] {64, 512}) {
          Result a = timed(() -> round(owned, values, ++generation[0], group, perKey));
          Result b = timed(() -> round(owned, values, ++generation[0], group, perGroup));
          if (round > 0) {
            print("replace", group, a, owned.size());
            print("evalMany", group, b, owned.size());
          }
        }
      }
      check(caches, values);
    } finally {
      for (DefaultCacheManager manager : managers) {
        manager.stop();
      }
      BelfryContender.deleteTree(home);
    }
  }

  private static DefaultCacheManager member(Path home, int index, int[] ports) {
    ConfigurationBuilder cache = new ConfigurationBuilder();
    cache.clustering().cacheMode(CacheMode.REPL_SYNC).remoteTimeout(15, TimeUnit.SECONDS);
    LoopbackJGroups.fileStore(cache, home);
    DefaultCacheManager manager =
        new DefaultCacheManager(
            LoopbackJGroups.member(home, "group-replication", "m" + index, ports[index], ports)
                .build());
    manager.defineConfiguration(CACHE, cache.build());
    return manager;
  }

  private static void awaitMembers(Cache<String, String> cache, int members)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (cache.getAdvancedCache().getRpcManager().getMembers().size() < members) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the three members did not form a cluster in 60 s");
      }
      Thread.sleep(100);
    }
  }

  private static List<String> keysOwnedByFirst(AdvancedCache<String, String> cache, int keys) {
    List<String> owned = new ArrayList<>(keys);
    for (int i = 0; owned.size() < keys; i++) {
      String key = "bench:key-" + i;
      if (cache.getDistributionManager().getCacheTopology().getDistribution(key).isPrimary()) {
        owned.add(key);
      }
    }
    return owned;
  }

  private static String value(String key, int generation) {
    return key + "|" + generation + "|" + PADDING;
  }

  /** Swaps the values of one group's keys to {@code generation}; returns the swaps won. */
  private interface GroupSwap {
    int swap(List<String> keysOfGroup, Map<String, String> values, int generation);
  }

  /**
   * One round: every key's value swapped for its next generation, group by group, by {@code swap};
   * {@code values} then holds what each key holds. Returns the swaps won.
   */
  private static int round(
      List<String> keys, Map<String, String> values, int generation, int group, GroupSwap swap) {
    int won = 0;
    for (List<String> keysOfGroup : groups(keys, group)) {
      won += swap.swap(keysOfGroup, values, generation);
      for (String key : keysOfGroup) {
        values.put(key, value(key, generation));
      }
    }
    return won;
  }

  /** One conditional replace per key, the group's issued before any is waited for. */
  private static int replaceEach(
      AdvancedCache<String, String> cache,
      List<String> keysOfGroup,
      Map<String, String> values,
      int generation) {
    List<CompletableFuture<Boolean>> issued = new ArrayList<>(keysOfGroup.size());
    for (String key : keysOfGroup) {
      issued.add(cache.replaceAsync(key, values.get(key), value(key, generation)));
    }
    return (int) issued.stream().filter(CompletableFuture::join).count();
  }

  /** One functional command for the group. */
  private static int evalMany(
      ReadWriteMap<String, String> functional,
      List<String> keysOfGroup,
      Map<String, String> values,
      int generation) {
    Map<String, String> swaps = new LinkedHashMap<>();
    for (String key : keysOfGroup) {
      swaps.put(key, ConditionalWrites.replacing(values.get(key), value(key, generation)));
    }
    return (int)
        functional
            .evalMany(swaps, ConditionalWrite.INSTANCE)
            .filter(result -> ConditionalWrites.Outcome.of(result).won())
            .count();
  }

  /** {@code keys} in consecutive groups of {@code size}, the last one shorter. */
  private static List<List<String>> groups(List<String> keys, int size) {
    List<List<String>> groups = new ArrayList<>();
    for (int from = 0; from < keys.size(); from += size) {
      groups.add(keys.subList(from, Math.min(keys.size(), from + size)));
    }
    return groups;
  }

  private record Result(long nanos, long cpuNanos, int won) {}

  private interface Round {
    int run();
  }

  private static Result timed(Round round) {
    long cpu = Usage.processCpuNanos();
    long start = System.nanoTime();
    int won = round.run();
    return new Result(System.nanoTime() - start, Usage.processCpuNanos() - cpu, won);
  }

  private static void print(String variant, int group, Result result, int keys) {
    if (result.won() != keys) {
      throw new IllegalStateException(variant + " won " + result.won() + " of " + keys + " swaps");
    }
    System.out.printf(
        Locale.ROOT,
        "| %s | %d | %,.0f | %,.0f |%n",
        variant,
        group,
        keys / (result.nanos() / 1e9),
        result.cpuNanos() / 1e3 / keys);
  }

  /** Every member holds every key's last value: the function ran, or was applied, everywhere. */
  private static void check(List<Cache<String, String>> caches, Map<String, String> values) {
    for (Cache<String, String> cache : caches) {
      AdvancedCache<String, String> local =
          cache.getAdvancedCache().withFlags(Flag.CACHE_MODE_LOCAL);
      for (Map.Entry<String, String> expected : values.entrySet()) {
        if (!expected.getValue().equals(local.get(expected.getKey()))) {
          throw new IllegalStateException(
              "a replica differs after the rounds: " + expected.getKey() + " on " + cache);
        }
      }
    }
    System.out.println("every member holds every key's last value");
  }
}
