package io.belfry.test;

import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.api.validation.EveryPropertyReachable;
import io.belfry.reminders.engine.EngineReminders;
import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.engine.VirtualTimeDriver;
import io.belfry.reminders.fire.AtLeastOnceSettings;
import io.belfry.reminders.fire.EngineSettings;
import io.belfry.reminders.fire.RetryPolicy;
import io.belfry.reminders.placement.CacheChangeFeed;
import io.belfry.reminders.schedule.SettableClock;
import io.belfry.reminders.store.InfinispanReminderStore;
import jakarta.validation.Path;
import jakarta.validation.TraversableResolver;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import java.lang.annotation.ElementType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.infinispan.Cache;

/**
 * Belfry on virtual time, in the test's JVM: the production {@link ReminderEngine}, without a timer
 * and on a {@link SettableClock}, over a real local Infinispan cache, behind the production door
 * ({@link EngineReminders}: the same validation and defaults as the {@code Reminders} bean). Time
 * moves only when the test says so, and fires are delivered on the test's thread, to the observers
 * it registered, and recorded in {@link #fires()}.
 *
 * <p>{@link #advanceTo(Instant)} stops at every instant something is due on the way, in order, so
 * every fire happens at its due time, as on a node that is up the whole time: recurring schedules,
 * cron in its zone across daylight-saving changes, end times, maximum counts, at-least-once retries
 * with their back-off, all as the engine computes them. To see misfire policies at work, take the
 * application down for a while with {@link #restartAfter(Duration)}.
 *
 * <p>Not thread-safe: one test drives it. Start one with {@link BelfryExtension}, or {@link
 * #builder()} and try-with-resources.
 */
public final class VirtualBelfry implements AutoCloseable {

  /** Where virtual time starts unless told otherwise: a Monday, 09:00 UTC. */
  public static final Instant DEFAULT_START = Instant.parse("2026-01-05T09:00:00Z");

  /** The caller's namespace of {@link #reminders()}, for code that names none. */
  public static final String DEFAULT_NAMESPACE = "default";

  /**
   * One factory for the JVM (building one costs about as much as a test); each instance takes a
   * validator reading its own clock from it.
   */
  private static ValidatorFactory validation;

  // copied from the builder, which an extension reuses for every test
  private final String defaultNamespace;
  private final EngineSettings settings;
  private final AtLeastOnceSettings atLeastOnce;
  private final SettableClock clock;
  private final Cache<String, String> cache;
  private final Validator validator;
  private final FireLog fires = new FireLog();
  private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
  private final Map<String, Reminders> remindersByNamespace = new ConcurrentHashMap<>();
  private final VirtualTimeDriver time;
  private ReminderEngine engine;

  private record Subscription(Predicate<String> namespaces, boolean async, FireObserver observer) {}

  private VirtualBelfry(Builder config) {
    this.defaultNamespace = config.namespace;
    this.settings = config.settings;
    this.atLeastOnce = config.atLeastOnce;
    this.clock = new SettableClock(config.start);
    this.cache = LocalReminderCache.create();
    java.time.Clock javaClock = clock.asJavaClock();
    this.validator =
        validation()
            .usingContext()
            .clockProvider(() -> javaClock)
            .traversableResolver(EveryPropertyReachable.INSTANCE)
            .getValidator();
    this.engine = startEngine();
    this.time = new VirtualTimeDriver(() -> engine, clock, settings.scanInterval(), ns -> true);
  }

  /** A Belfry starting at {@link #DEFAULT_START}, with the production defaults. */
  public static VirtualBelfry start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  private ReminderEngine startEngine() {
    ReminderEngine started =
        ReminderEngine.builder(
                new InfinispanReminderStore(cache),
                new LocalReminderCache.SingleNode(),
                new CacheChangeFeed(cache))
            .clock(clock)
            .delivery(this::deliver)
            .settings(settings)
            .atLeastOnce(atLeastOnce)
            .build();
    started.start();
    return started;
  }

  // --- The application's side --------------------------------------------------------------

  /** The {@code Reminders} of the {@linkplain Builder#namespace default namespace}. */
  public Reminders reminders() {
    return reminders(defaultNamespace);
  }

  /**
   * The {@code Reminders} a deployment serving {@code namespace} injects: requests that name no
   * namespace act in this one.
   */
  public Reminders reminders(String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    return remindersByNamespace.computeIfAbsent(
        namespace, ns -> new EngineReminders(() -> engine, validator, () -> ns, clock));
  }

  /**
   * Wires an application bean as CDI would in a deployment: its {@code @Inject Reminders} fields
   * get the {@code Reminders} of the first namespace of its {@code @ServesNamespaces} (else the
   * default namespace), and its {@code @Observes}/{@code @ObservesAsync ReminderFired} methods
   * observe fires, of their {@code @Namespace} or of every namespace. Other injection points are
   * the test's to fill.
   *
   * @return {@code bean}
   */
  public <T> T inject(T bean) {
    String namespace = BeanWiring.namespaceOf(bean.getClass(), defaultNamespace);
    BeanWiring.injectReminders(bean, reminders(namespace));
    for (BeanWiring.ObserverMethod method : BeanWiring.observerMethods(bean)) {
      subscriptions.add(
          new Subscription(
              method.namespace().<Predicate<String>>map(ns -> ns::equals).orElse(ns -> true),
              method.async(),
              method.observer()));
    }
    return bean;
  }

  /** Calls {@code observer} with every fire of {@code namespace}, as {@code @Observes} would. */
  public VirtualBelfry observe(String namespace, FireObserver observer) {
    Objects.requireNonNull(namespace, "namespace");
    subscriptions.add(new Subscription(namespace::equals, false, observer));
    return this;
  }

  /** Calls {@code observer} with every fire, whatever its namespace. */
  public VirtualBelfry observeAll(FireObserver observer) {
    subscriptions.add(new Subscription(ns -> true, false, observer));
    return this;
  }

  /**
   * What CDI delivery does: asynchronous observers are started first and cannot fail the delivery
   * (their failures are only recorded); then the synchronous ones run in order, and the first that
   * throws fails it.
   */
  private void deliver(ReminderFired fire) throws Exception {
    fires.delivered(fire);
    for (Subscription s : subscriptions) {
      if (s.async() && s.namespaces().test(fire.getNamespace())) {
        try {
          s.observer().onFire(fire);
        } catch (Exception e) {
          fires.failed(fire, e);
        }
      }
    }
    for (Subscription s : subscriptions) {
      if (!s.async() && s.namespaces().test(fire.getNamespace())) {
        try {
          s.observer().onFire(fire);
        } catch (Exception | Error e) {
          fires.failed(fire, e);
          throw e;
        }
      }
    }
  }

  /** What fired so far. */
  public FireLog fires() {
    return fires;
  }

  // --- Virtual time ------------------------------------------------------------------------

  /** Virtual now. */
  public Instant now() {
    return time.now();
  }

  /**
   * Moves virtual time forward by {@code step}, firing everything that comes due on the way at its
   * due time.
   *
   * @return how many fires were delivered
   */
  public int advanceBy(Duration step) {
    return time.advanceBy(step);
  }

  /**
   * Moves virtual time forward to {@code target}, stopping at each instant something is due on the
   * way, in order, and firing it there.
   *
   * @return how many fires were delivered
   */
  public int advanceTo(Instant target) {
    return time.advanceTo(target);
  }

  /**
   * Fires what is due at virtual now, without moving time; runs the engine until it has nothing
   * more to do (a catch-up under {@code FIRE_ALL} takes several runs).
   *
   * @return how many fires were delivered
   */
  public int fireDue() {
    return time.fireDue();
  }

  /**
   * The application is down for {@code downtime}: nothing fires while virtual time moves on; then
   * it starts again on the same cache, recovers as a restarted node does (every stored reminder is
   * re-armed, the overdue ones handled by their misfire policy) and fires what is due.
   *
   * @return how many fires were delivered at the restart
   */
  public int restartAfter(Duration downtime) {
    if (downtime.isNegative()) {
      throw new IllegalArgumentException("downtime must not be negative, was " + downtime);
    }
    engine.stop();
    clock.advance(downtime);
    engine = startEngine();
    return fireDue();
  }

  /** When the engine will next have something to do (a fire, a retry), if anything is pending. */
  public Optional<Instant> nextDue() {
    return time.nextDue();
  }

  /** The engine itself, for what the kit does not wrap (e.g. {@code armedCount()}). */
  public ReminderEngine engine() {
    return engine;
  }

  @Override
  public void close() {
    engine.stop();
    LocalReminderCache.remove(cache);
  }

  private static synchronized ValidatorFactory validation() {
    if (validation == null) {
      validation =
          Validation.byDefaultProvider()
              .configure()
              // Requests are no JPA entities: without this, Hibernate Validator looks for a
              // persistence provider on the test's class path at every start (seconds).
              .traversableResolver(new EverythingReachable())
              .buildValidatorFactory();
    }
    return validation;
  }

  /** Every property reachable: no JPA entities here to ask a persistence provider about. */
  private static final class EverythingReachable implements TraversableResolver {
    @Override
    public boolean isReachable(
        Object bean, Path.Node property, Class<?> root, Path path, ElementType type) {
      return true;
    }

    @Override
    public boolean isCascadable(
        Object bean, Path.Node property, Class<?> root, Path path, ElementType type) {
      return true;
    }
  }

  /** How to start a {@link VirtualBelfry}; every part has the production default. */
  public static final class Builder {
    private Instant start = DEFAULT_START;
    private String namespace = DEFAULT_NAMESPACE;
    private EngineSettings settings = EngineSettings.DEFAULTS;
    private AtLeastOnceSettings atLeastOnce = AtLeastOnceSettings.DEFAULTS;

    private Builder() {}

    /** Where virtual time starts; default {@link VirtualBelfry#DEFAULT_START}. */
    public Builder startingAt(Instant start) {
      this.start = Objects.requireNonNull(start, "start");
      return this;
    }

    /** The namespace of {@link VirtualBelfry#reminders()}; default {@value #DEFAULT_NAMESPACE}. */
    public Builder namespace(String namespace) {
      this.namespace = Objects.requireNonNull(namespace, "namespace");
      return this;
    }

    /** The engine's knobs (e.g. the tombstone TTL); default {@link EngineSettings#DEFAULTS}. */
    public Builder settings(EngineSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /**
     * Leases and retries of at-least-once deliveries; default {@link AtLeastOnceSettings#DEFAULTS}
     * (five attempts, 1 s, 2 s, 4 s, 8 s apart before jitter).
     */
    public Builder atLeastOnce(AtLeastOnceSettings atLeastOnce) {
      this.atLeastOnce = Objects.requireNonNull(atLeastOnce, "atLeastOnce");
      return this;
    }

    /** The same retry policy for every namespace, with the default lease. */
    public Builder retryPolicy(RetryPolicy policy) {
      Objects.requireNonNull(policy, "policy");
      return atLeastOnce(new AtLeastOnceSettings(AtLeastOnceSettings.DEFAULT_LEASE, ns -> policy));
    }

    public VirtualBelfry start() {
      return new VirtualBelfry(this);
    }
  }
}
