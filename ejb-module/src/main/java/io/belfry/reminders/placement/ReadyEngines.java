package io.belfry.reminders.placement;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.infinispan.Cache;
import org.infinispan.distribution.LocalizedCacheTopology;
import org.infinispan.notifications.Listener;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryCreated;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryModified;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryRemoved;
import org.infinispan.notifications.cachelistener.annotation.TopologyChanged;
import org.infinispan.notifications.cachelistener.event.Event;
import org.infinispan.remoting.transport.Address;
import org.jboss.logging.Logger;

/**
 * Which members run an engine of this application, cluster-wide: the roster that lets a segment's
 * fires wait for its owner's engine ({@link CacheOwnership}). Each engine announces itself in the
 * small replicated {@code engines} cache once it has started and withdraws before it stops.
 *
 * <p>Why: a node that joins becomes a segment's primary owner as soon as it holds the segment, and
 * with a small store that is seconds before its deployment has started its engine (Weld, the
 * console and the schema checks come in between); reminders due then fired late by up to 4 s. With
 * the roster, the segments of a member whose engine has not announced itself are fired by the first
 * member of the topology whose engine has. An overlap, while the news travels, is harmless: a fire
 * is delivered only by the node whose tombstone-first conditional replace wins.
 *
 * <p>An entry's key is the application and the member's node UUID, which is new at every start of a
 * node: an entry left by a node that died names a member no topology holds, and every member
 * removes such entries when the topology changes, so a node restarted under the same name is not
 * taken for ready before it says so. After a partition merges, each member writes its own entry
 * again, since each side removed the other's.
 *
 * <p><b>Joining.</b> An engine that starts while another member's engine of the application is
 * ready may <em>hold back</em> ({@link #start(Runnable, boolean)}): until it announces itself, this
 * node counts as not ready on itself as well, so its segments stay with the member that fires them
 * while it reads the hints of the segments it will own, and it announces itself once it has them
 * ({@link #announceWhen}). Without that, at a million reminders a joiner became owner of a third of
 * them the moment its state transfer ended and read them from its store before arming them, about 5
 * s in which nobody fired them.
 */
public final class ReadyEngines {

  private static final Logger LOG = Logger.getLogger(ReadyEngines.class);

  private static final char SEPARATOR = '|';

  private final Cache<String, String> engines;
  private final String application;
  private final Executor background;
  private final Address local;
  private final String localKey;

  private volatile Set<UUID> ready = Set.of();
  private volatile Runnable onChange = () -> {};
  private volatile boolean announced;
  private volatile boolean holdingBack;
  private volatile boolean earlierBuildReported;
  private ScheduledFuture<?> announcer;
  private Changes listener;

  /**
   * @param engines the replicated {@code engines} cache (no store)
   * @param application the deployment's application name; engines of other applications on the same
   *     members are another roster
   * @param background runs the clean-up after a topology change, off Infinispan's threads
   */
  public ReadyEngines(Cache<String, String> engines, String application, Executor background) {
    this.engines = Objects.requireNonNull(engines, "engines");
    this.application = Objects.requireNonNull(application, "application");
    this.background = Objects.requireNonNull(background, "background");
    this.local = engines.getCacheManager().getAddress();
    this.localKey = keyOf(Objects.requireNonNull(local, "the engines cache must be clustered"));
  }

  /** Reads the roster and follows it from now on; {@code onChange} runs after every change. */
  public synchronized void start(Runnable onChange) {
    start(onChange, false);
  }

  /**
   * Reads the roster and follows it from now on; {@code onChange} runs after every change. With
   * {@code holdBackIfJoining}, if another member's engine of the application is ready now, this
   * node holds back until it {@link #announce announces} itself: it is not ready on itself either.
   */
  public synchronized void start(Runnable onChange, boolean holdBackIfJoining) {
    this.onChange = Objects.requireNonNull(onChange, "onChange");
    if (listener == null) {
      listener = new Changes();
      engines.addListener(listener);
    }
    refresh();
    UUID self = local.getNodeUUID();
    holdingBack = holdBackIfJoining && ready.stream().anyMatch(engine -> !engine.equals(self));
  }

  /** Whether this node holds back its segments until it announces itself; see the class doc. */
  public boolean holdingBack() {
    return holdingBack && !announced;
  }

  /**
   * Announces this node now, or, while it {@link #holdingBack holds back}, once {@code armed} says
   * its engine has what it needs to fire its segments, asked every {@value #ANNOUNCE_POLL_MILLIS}
   * ms on {@code timer}.
   */
  public synchronized void announceWhen(BooleanSupplier armed, ScheduledExecutorService timer) {
    if (!holdingBack()) {
      announce();
      return;
    }
    long startNanos = System.nanoTime();
    LOG.infof(
        "BELFRY-0115 Engine of %s on %s joins running engines: its segments stay with them until"
            + " it holds their hints",
        application, local);
    announcer =
        timer.scheduleWithFixedDelay(
            () -> {
              try {
                if (armed.getAsBoolean()) {
                  announceArmed(startNanos);
                }
              } catch (RuntimeException e) {
                LOG.debugf(e, "BELFRY-0117 Could not ask whether %s is armed", application);
              }
            },
            ANNOUNCE_POLL_MILLIS,
            ANNOUNCE_POLL_MILLIS,
            TimeUnit.MILLISECONDS);
  }

  /** How often a holding-back engine is asked whether it is armed. */
  static final long ANNOUNCE_POLL_MILLIS = 250;

  private synchronized void announceArmed(long startNanos) {
    if (announcer == null) {
      return; // withdrawn, or announced by an earlier poll
    }
    announcer.cancel(false);
    announcer = null;
    announce();
    LOG.infof(
        "BELFRY-0116 Engine of %s on %s armed after %d ms of holding back: it fires its segments",
        application, local, (System.nanoTime() - startNanos) / 1_000_000);
  }

  /** Tells every member that this node's engine fires its segments from now on. */
  public void announce() {
    announced = true;
    putOwnEntry();
    LOG.debugf("BELFRY-0110 Engine of %s on %s announced", application, local);
  }

  /**
   * Tells every member that this node's engine stops: its segments go to the first ready member
   * while its cache still holds them. Best effort: a member that cannot be told learns it from the
   * topology when this node leaves.
   */
  public synchronized void withdraw() {
    announced = false;
    holdingBack = false;
    if (announcer != null) {
      announcer.cancel(false);
      announcer = null;
    }
    if (listener != null) {
      try {
        engines.removeListener(listener);
      } catch (RuntimeException e) {
        LOG.debugf(e, "BELFRY-0111 Could not remove the listener from %s", engines.getName());
      }
      listener = null;
    }
    try {
      engines.remove(localKey);
    } catch (RuntimeException e) {
      LOG.debugf(e, "BELFRY-0112 Could not withdraw the engine of %s", application);
    }
  }

  /**
   * Whether {@code member}'s engine of this application has announced itself; this node counts as
   * ready unless it {@link #holdingBack holds back}, its engine being the one that asks.
   */
  public boolean isReady(Address member) {
    if (member == null) {
      return false;
    }
    if (member.equals(local)) {
      return !holdingBack();
    }
    return ready.contains(member.getNodeUUID());
  }

  private String keyOf(Address member) {
    return application + SEPARATOR + member.getNodeUUID();
  }

  private void refresh() {
    String prefix = application + SEPARATOR;
    Set<UUID> now = new HashSet<>();
    for (String key : engineKeys()) {
      if (key.startsWith(prefix)) {
        now.add(UUID.fromString(key.substring(prefix.length())));
      }
    }
    ready = Set.copyOf(now);
  }

  private void changed() {
    refresh();
    onChange.run();
  }

  /**
   * After a topology change: removes the entries of nodes no longer members (of any application),
   * and writes this node's own again if it is announced (a merge brings back a side that removed
   * it).
   */
  private void tidy() {
    LocalizedCacheTopology topology =
        engines.getAdvancedCache().getDistributionManager().getCacheTopology();
    List<Address> members = topology.getMembers();
    Set<String> liveSuffixes = new HashSet<>();
    for (Address member : members) {
      liveSuffixes.add(String.valueOf(SEPARATOR) + member.getNodeUUID());
    }
    for (String key : engineKeys()) {
      String suffix = key.substring(key.lastIndexOf(SEPARATOR));
      if (!liveSuffixes.contains(suffix)) {
        engines.remove(key);
      }
    }
    if (announced && !engines.containsKey(localKey)) {
      putOwnEntry();
    }
    changed();
  }

  /**
   * The roster's keys. An entry that is not a String was written in WildFly's per-deployment form
   * by an engine of an earlier build, which joined after this one started (PlainForm refuses the
   * other order): it is left out, and said loudly, since that engine cannot see this build's
   * reminders nor this build its.
   */
  private List<String> engineKeys() {
    List<String> keys = new ArrayList<>();
    for (Object key : (Set<?>) engines.keySet()) {
      if (key instanceof String engineKey) {
        keys.add(engineKey);
      } else if (!earlierBuildReported) {
        earlierBuildReported = true;
        LOG.errorf(
            "BELFRY-0118 An engine of an earlier Belfry build joined the cluster of %s (%s): it"
                + " and this build cannot read each other's reminders. Stop every member and start"
                + " them all on one build; see docs/operations.md, \"Upgrading\"",
            application, key.getClass().getName());
      }
    }
    return keys;
  }

  /** This node's entry: the key says which engine is ready, the value names the node for people. */
  private void putOwnEntry() {
    engines.put(localKey, String.valueOf(local));
  }

  @Listener(observation = Listener.Observation.POST)
  public final class Changes {

    @CacheEntryCreated
    @CacheEntryModified
    @CacheEntryRemoved
    public void entryChanged(Event<String, String> event) {
      changed();
    }

    @TopologyChanged
    public void topologyChanged(Event<String, String> event) {
      try {
        background.execute(
            () -> {
              try {
                tidy();
              } catch (RuntimeException e) {
                LOG.warnf(e, "BELFRY-0113 Could not tidy the engines of %s", application);
              }
            });
      } catch (RejectedExecutionException e) {
        LOG.debugf(e, "BELFRY-0114 Engines of %s not tidied: shutting down", application);
      }
    }
  }
}
