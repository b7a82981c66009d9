package io.belfry.reminders.cdi;

import io.belfry.reminders.config.BackgroundExecutor;
import io.belfry.reminders.config.BelfryExecutor;
import io.belfry.reminders.config.BelfrySettings;
import io.belfry.reminders.config.EnginesCache;
import io.belfry.reminders.config.RemindersCache;
import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.engine.ReminderEngineBuilder;
import io.belfry.reminders.engine.VirtualTimeDriver;
import io.belfry.reminders.fire.EngineSettings;
import io.belfry.reminders.fire.ResurrectionGuard;
import io.belfry.reminders.placement.ConflictRepair;
import io.belfry.reminders.placement.JoinWrites;
import io.belfry.reminders.placement.ReadyEngines;
import io.belfry.reminders.schedule.Clock;
import io.belfry.reminders.schedule.SettableClock;
import io.belfry.reminders.virtualtime.VirtualTimeSwitch;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.infinispan.Cache;
import org.infinispan.remoting.transport.Address;
import org.jboss.logging.Logger;

/**
 * This deployment's reminder engine: built on the server's cache and executors when the application
 * starts (recovery: arm what this node owns, fire what is overdue under the backfill rate), stopped
 * when it stops. One engine per deployment and node; it fires only the namespaces this deployment
 * serves, but sets, reads and cancels any.
 */
@ApplicationScoped
public class EngineRuntime {

  private static final Logger LOG = Logger.getLogger(EngineRuntime.class);

  @Inject @RemindersCache Cache<String, String> cache;

  @Inject @EnginesCache Cache<String, String> enginesCache;

  @Inject @BelfryExecutor ManagedScheduledExecutorService timer;

  @Inject @BelfryExecutor ManagedExecutorService deliveryExecutor;

  @Inject @BackgroundExecutor ManagedExecutorService background;

  @Inject CdiDelivery delivery;

  @Inject ActivityAnnouncer announcer;

  @Inject DeploymentNamespaces namespaces;

  /** The audit module's, when it is deployed alongside; otherwise nothing to consult. */
  @Inject Instance<ResurrectionGuard> guards;

  /** A tombstone TTL no test advances past: a virtual clock never purges (see start()). */
  private static final Duration NO_PURGE_ON_VIRTUAL_TIME = Duration.ofDays(365L * 1000);

  private volatile ReminderEngine engine;
  private volatile ReadyEngines roster;
  private ConflictRepair repair;
  private JoinWrites joins;

  /** Set only on virtual time ({@link VirtualTimeSwitch}). */
  private VirtualTimeDriver virtualTime;

  /** Starts the engine with the application rather than at first use: reminders fire unasked. */
  void onApplicationStart(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
    LOG.debugf("BELFRY-0004 Engine for namespaces %s ready", namespaces.served());
  }

  @PostConstruct
  void start() {
    EngineSettings settings = BelfrySettings.fromSystemProperties();
    // Read before the engine takes its segments; followed from then on (ReadyEngines says why).
    roster = new ReadyEngines(enginesCache, namespaces.applicationName(), background);
    // With standby hints a joiner holds back its segments until it has their hints in memory.
    roster.start(this::firingMembersChanged, settings.standbyHints());
    ReminderEngineBuilder builder =
        ReminderEngine.builder(cache, roster::isReady)
            .delivery(delivery)
            .listener(announcer)
            .servedNamespaces(namespaces::serves)
            .settings(settings)
            .atLeastOnce(BelfrySettings.atLeastOnceFromSystemProperties())
            .resurrectionGuard(guards.isResolvable() ? guards.get() : ResurrectionGuard.NONE)
            .background(background);
    if (VirtualTimeSwitch.enabledFor(namespaces.applicationName())) {
      // No timer: the engine runs only when a test advances its clock, and delivers on that
      // test's thread (VirtualTime), so a call returns after the observers ran. Its sweep would
      // purge the expired tombstones of every namespace on the server, judged by virtual time:
      // tombstones are left to the other deployments' engines, which run on the real clock.
      SettableClock clock = new SettableClock(Instant.now());
      builder.clock(clock).settings(settings.withTombstoneTtl(NO_PURGE_ON_VIRTUAL_TIME));
      virtualTime =
          new VirtualTimeDriver(this::engine, clock, settings.scanInterval(), namespaces::serves);
      LOG.warnf(
          "BELFRY-0005 VIRTUAL TIME for application %s (-D%s): namespaces %s fire only when a test"
              + " advances the clock; never set this on a server that runs for real",
          namespaces.applicationName(), VirtualTimeSwitch.PROPERTY, namespaces.served());
    } else {
      builder.timer(timer).deliveryExecutor(deliveryExecutor);
    }
    engine = builder.build();
    engine.start();
    roster.announceWhen(engine::armedForShare, timer);
    repair = new ConflictRepair(cache, background);
    repair.start();
    joins = new JoinWrites(cache, background);
    joins.start();
    LOG.infof(
        "BELFRY-0003 Serving namespaces %s on node %s",
        namespaces.served(), cache.getCacheManager().getAddress());
  }

  @PreDestroy
  void stop() {
    // first: the other members take this node's segments while its cache still serves them
    if (roster != null) {
      roster.withdraw();
    }
    if (joins != null) {
      joins.stop();
    }
    if (repair != null) {
      repair.stop();
    }
    if (engine != null) {
      engine.stop();
    }
  }

  /**
   * Whether {@code member}'s engine of this application has announced itself (true for every member
   * before this engine started): which node fires a segment, as the engine decides it.
   */
  public boolean engineReady(Address member) {
    ReadyEngines announced = roster;
    return announced == null || announced.isReady(member);
  }

  private void firingMembersChanged() {
    ReminderEngine running = engine;
    if (running != null) {
      running.firingMembersChanged();
    }
  }

  public ReminderEngine engine() {
    return engine;
  }

  /** The engine's "now": the real clock, or the virtual one a test moves. */
  public Clock clock() {
    return virtualTime != null ? virtualTime.clock() : Clock.system();
  }

  /** What moves the engine's time, when this deployment runs on virtual time. */
  public Optional<VirtualTimeDriver> virtualTime() {
    return Optional.ofNullable(virtualTime);
  }
}
