package io.belfry.reminders.config;

import io.belfry.reminders.store.PlainForm;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.Typed;
import org.infinispan.AdvancedCache;
import org.infinispan.Cache;

/**
 * The one place that looks up what the server provides to Belfry: the replicated {@code reminders}
 * and {@code engines} caches and the managed executors, defined by the CLI scripts in {@code
 * server-config/} (the default executor by WildFly). Everything else injects them, so tests and
 * deployments name each resource once.
 */
@ApplicationScoped
public class ContainerResources {

  /** JNDI name of the replicated reminders cache (cache container {@code belfry}). */
  public static final String REMINDERS_CACHE = "java:jboss/infinispan/cache/belfry/reminders";

  /** JNDI name of the replicated cache where engines announce themselves (no store). */
  public static final String ENGINES_CACHE = "java:jboss/infinispan/cache/belfry/engines";

  /** JNDI name of the scheduled executor that runs timers and sweeps. */
  public static final String SCHEDULER = "java:jboss/ee/concurrency/scheduler/belfry";

  /** JNDI name of the executor that runs application observers. */
  public static final String DELIVERY = "java:jboss/ee/concurrency/executor/belfry";

  /** The server's default executor, for background work that may take minutes. */
  public static final String BACKGROUND = "java:jboss/ee/concurrency/executor/default";

  @Resource(lookup = REMINDERS_CACHE)
  private Cache<String, String> reminders;

  @Resource(lookup = ENGINES_CACHE)
  private Cache<String, String> engines;

  @Resource(lookup = SCHEDULER)
  private ManagedScheduledExecutorService scheduler;

  @Resource(lookup = DELIVERY)
  private ManagedExecutorService delivery;

  @Resource(lookup = BACKGROUND)
  private ManagedExecutorService background;

  private AdvancedCache<String, String> plainReminders;

  private AdvancedCache<String, String> plainEngines;

  /**
   * Resolves both caches as plain Strings ({@link PlainForm}) and, before anything in this
   * deployment reads them, moves what an earlier build stored in WildFly's per-deployment form and
   * refuses a cluster where such a build still runs. Resolving once here also skips WildFly's
   * {@code LazyCache}, which looks the cache up in its container again (with a parse of its media
   * types) on every call: 2–7 % of a node's CPU in a three-node cluster taking sets
   * (docs/performance/rest-door.md). The deployment depends on the caches' services, so the caches
   * resolved here live as long as the deployment.
   */
  @PostConstruct
  void resolvePlainForm() {
    plainEngines = PlainForm.of(engines);
    PlainForm.refuseEarlierEngines(plainEngines);
    plainReminders = PlainForm.of(reminders);
    PlainForm.migrate(reminders, plainReminders);
  }

  @Produces
  @RemindersCache
  Cache<String, String> reminders() {
    return plainReminders;
  }

  @Produces
  @EnginesCache
  Cache<String, String> engines() {
    return plainEngines;
  }

  // Typed: a scheduled executor is also a ManagedExecutorService, which must resolve to delivery.
  @Produces
  @BelfryExecutor
  @Typed(ManagedScheduledExecutorService.class)
  ManagedScheduledExecutorService scheduler() {
    return scheduler;
  }

  @Produces
  @BelfryExecutor
  ManagedExecutorService delivery() {
    return delivery;
  }

  @Produces
  @BackgroundExecutor
  ManagedExecutorService background() {
    return background;
  }
}
