package io.belfry.reminders.placement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.commands.CommandsFactory;
import org.infinispan.commands.read.GetCacheEntryCommand;
import org.infinispan.commands.remote.ClusteredGetCommand;
import org.infinispan.commons.CacheException;
import org.infinispan.container.entries.CacheEntry;
import org.infinispan.container.entries.InternalCacheValue;
import org.infinispan.context.InvocationContext;
import org.infinispan.context.InvocationContextFactory;
import org.infinispan.context.impl.FlagBitSets;
import org.infinispan.distribution.DistributionInfo;
import org.infinispan.distribution.LocalizedCacheTopology;
import org.infinispan.factories.ComponentRegistry;
import org.infinispan.remoting.responses.CacheNotFoundResponse;
import org.infinispan.remoting.responses.Response;
import org.infinispan.remoting.responses.SuccessfulResponse;
import org.infinispan.remoting.responses.UnsureResponse;
import org.infinispan.remoting.rpc.RpcManager;
import org.infinispan.remoting.rpc.RpcOptions;
import org.infinispan.remoting.transport.Address;
import org.infinispan.remoting.transport.impl.MapResponseCollector;

/**
 * Reads what every owner of a key holds, in memory or in its file store: the local replica
 * directly, the others with one clustered get each, sent together.
 *
 * <p>Why not {@code ConflictManager.getAllVersions}, which does the same: Infinispan 16.0.5 keeps
 * each of its requests in a map, and when a topology update changes a key's owners while one is in
 * flight, its {@code VersionRequest.cancelRequestIfOutdated} calls {@code clear()} on the immutable
 * owner list. The {@code UnsupportedOperationException} fails the node's whole rebalance ({@code
 * ISPN000230}, {@code ISPN100016}), and the node then waits for a topology it never installs: in a
 * CI rehearsal (2026-11-28) a node settling the keys written during a merge had a read in flight to
 * the member a network cut then removed, and the majority side refused every write until the
 * partition healed. A read of this class is kept in no such map; a member that leaves while it is
 * in flight is left out of the result, which holds what the others answered.
 */
final class ReplicaReads {

  private static final long LOCAL_FLAGS =
      FlagBitSets.CACHE_MODE_LOCAL | FlagBitSets.SKIP_OWNERSHIP_CHECK | FlagBitSets.SKIP_LOCKING;

  private final Cache<String, String> cache;

  ReplicaReads(Cache<String, String> cache) {
    this.cache = cache;
  }

  /**
   * Every owner's value of the key given in its storage form, by member; a member that holds none
   * maps to null, a member that left while the read was in flight is missing. Throws {@link
   * CacheException} if an owner cannot answer (a timeout, an error), as a view change may cause.
   */
  Map<Address, InternalCacheValue<?>> read(Object storageKey) {
    AdvancedCache<String, String> advanced = cache.getAdvancedCache();
    for (int attempt = 0; ; attempt++) {
      LocalizedCacheTopology topology = advanced.getDistributionManager().getCacheTopology();
      DistributionInfo owners = topology.getDistribution(storageKey);
      Map<Address, InternalCacheValue<?>> held = new HashMap<>();
      List<Address> others = new ArrayList<>();
      for (Address owner : owners.writeOwners()) {
        if (owner.equals(topology.getLocalAddress())) {
          held.put(owner, local(storageKey, owners.segmentId()));
        } else {
          others.add(owner);
        }
      }
      if (others.isEmpty() || remote(storageKey, owners.segmentId(), topology, others, held)) {
        return held;
      }
      if (attempt >= 3) {
        throw new CacheException("the replicas of a key kept answering that they were unsure");
      }
    }
  }

  /**
   * This node's replica, read from memory or its store, without a lock or a remote call: the same
   * local command conflict resolution issues.
   */
  private InternalCacheValue<?> local(Object storageKey, int segment) {
    ComponentRegistry registry = registry();
    GetCacheEntryCommand get =
        registry.getCommandsFactory().buildGetCacheEntryCommand(storageKey, segment, LOCAL_FLAGS);
    InvocationContext context =
        registry.getComponent(InvocationContextFactory.class).createNonTxInvocationContext();
    CacheEntry<?, ?> entry =
        (CacheEntry<?, ?>) registry.getInterceptorChain().running().invoke(context, get);
    return entry == null || entry.getValue() == null
        ? null
        : registry.getInternalEntryFactory().running().createValue(entry);
  }

  /**
   * Asks {@code others} for their replica; adds what each holds to {@code held}. False if one
   * answered that it is unsure (its topology moved): the caller reads again.
   */
  private boolean remote(
      Object storageKey,
      int segment,
      LocalizedCacheTopology topology,
      List<Address> others,
      Map<Address, InternalCacheValue<?>> held) {
    ComponentRegistry registry = registry();
    CommandsFactory commands = registry.getCommandsFactory();
    RpcManager rpc = registry.getComponent(RpcManager.class);
    ClusteredGetCommand get =
        commands.buildClusteredGetCommand(storageKey, segment, FlagBitSets.SKIP_OWNERSHIP_CHECK);
    get.setTopologyId(topology.getTopologyId());
    RpcOptions options = rpc.getSyncRpcOptions();
    Map<Address, Response> answers;
    try {
      answers =
          rpc.invokeCommand(others, get, MapResponseCollector.ignoreLeavers(others.size()), options)
              .toCompletableFuture()
              // the RPC's own timeout ends it first; this only keeps a lost completion from hanging
              .get(options.timeUnit().toMillis(options.timeout()) + 5_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CacheException("interrupted while reading the replicas of a key", e);
    } catch (ExecutionException e) {
      throw new CacheException("the replicas of a key could not be read: " + e.getCause(), e);
    } catch (TimeoutException e) {
      throw new CacheException("the replicas of a key did not answer in time", e);
    }
    for (Map.Entry<Address, Response> answer : answers.entrySet()) {
      Response response = answer.getValue();
      if (response instanceof SuccessfulResponse success) {
        held.put(answer.getKey(), (InternalCacheValue<?>) success.getResponseValue());
      } else if (response instanceof UnsureResponse) {
        return false;
      } else if (!(response instanceof CacheNotFoundResponse)) {
        throw new CacheException(
            "the replica on " + answer.getKey() + " could not be read: " + response);
      }
    }
    return true;
  }

  /**
   * The cache's components, through {@code getAdvancedCache()}: the cache WildFly binds is a
   * wrapper ({@code LazyCache}) that is not one of Infinispan's internal caches, which {@code
   * ComponentRegistry.of} casts to (a {@code ClassCastException} on every read, seen in an IT).
   * {@code ContainerResources} hands out the cache itself now, but a caller may still pass the
   * wrapper.
   */
  private ComponentRegistry registry() {
    return ComponentRegistry.of(cache.getAdvancedCache());
  }
}
