package io.belfry.reminders.engine;

import io.belfry.reminders.fire.AtLeastOnceSettings;
import io.belfry.reminders.fire.Delivery;
import io.belfry.reminders.fire.EngineListener;
import io.belfry.reminders.fire.EngineSettings;
import io.belfry.reminders.fire.ResurrectionGuard;
import io.belfry.reminders.model.HybridLogicalClock;
import io.belfry.reminders.placement.ChangeFeed;
import io.belfry.reminders.placement.Ownership;
import io.belfry.reminders.schedule.Clock;
import io.belfry.reminders.store.ReminderStore;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;

/**
 * Assembles a {@link ReminderEngine} ({@link ReminderEngine#builder}); every part but the delivery
 * has a default. Its fields are read by the engine's constructor.
 */
public final class ReminderEngineBuilder {
  final ReminderStore store;
  final Ownership ownership;
  final ChangeFeed feed;
  Clock clock = Clock.system();
  HybridLogicalClock versions;
  ScheduledExecutorService timer;
  Executor background;
  Executor deliveryExecutor = Runnable::run;
  Delivery delivery;
  EngineListener listener = EngineListener.NONE;
  Predicate<String> servedNamespaces = namespace -> true;
  EngineSettings settings = EngineSettings.DEFAULTS;
  Duration unavailablePatience = ReminderEngine.DEFAULT_UNAVAILABLE_PATIENCE;
  ResurrectionGuard resurrectionGuard = ResurrectionGuard.NONE;
  AtLeastOnceSettings atLeastOnce = AtLeastOnceSettings.DEFAULTS;

  ReminderEngineBuilder(ReminderStore store, Ownership ownership, ChangeFeed feed) {
    this.store = Objects.requireNonNull(store, "store");
    this.ownership = Objects.requireNonNull(ownership, "ownership");
    this.feed = Objects.requireNonNull(feed, "feed");
  }

  /** Where "now" comes from; default the system clock. Versions are minted from it too. */
  public ReminderEngineBuilder clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /** The versions clock; default a new one on {@link #clock}. */
  public ReminderEngineBuilder versions(HybridLogicalClock versions) {
    this.versions = Objects.requireNonNull(versions, "versions");
    return this;
  }

  /**
   * Runs wake-ups and sweeps; without one the engine fires only on {@link ReminderEngine#tick()}.
   */
  public ReminderEngineBuilder timer(ScheduledExecutorService timer) {
    this.timer = Objects.requireNonNull(timer, "timer");
    return this;
  }

  /**
   * Runs long reads that must not hold the timer's or the deliveries' threads (the key index's read
   * of the replica after a topology change); default none: the first reader does them.
   */
  public ReminderEngineBuilder background(Executor background) {
    this.background = Objects.requireNonNull(background, "background");
    return this;
  }

  /** Runs deliveries; default the scheduler's own thread. */
  public ReminderEngineBuilder deliveryExecutor(Executor deliveryExecutor) {
    this.deliveryExecutor = Objects.requireNonNull(deliveryExecutor, "deliveryExecutor");
    return this;
  }

  /** Receives every committed fire; required. */
  public ReminderEngineBuilder delivery(Delivery delivery) {
    this.delivery = Objects.requireNonNull(delivery, "delivery");
    return this;
  }

  public ReminderEngineBuilder listener(EngineListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /** Which namespaces this node fires; default all. */
  public ReminderEngineBuilder servedNamespaces(Predicate<String> servedNamespaces) {
    this.servedNamespaces = Objects.requireNonNull(servedNamespaces, "servedNamespaces");
    return this;
  }

  public ReminderEngineBuilder settings(EngineSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    return this;
  }

  /**
   * How long a set or cancel keeps trying while the cluster cannot take it (a member just left, or
   * this node is cut off from the majority) before it fails with {@link
   * io.belfry.reminders.api.RemindersUnavailableException}; default {@value
   * ReminderEngine#DEFAULT_UNAVAILABLE_PATIENCE_SECONDS} s.
   */
  public ReminderEngineBuilder unavailablePatience(Duration patience) {
    if (patience.isNegative()) {
      throw new IllegalArgumentException("unavailablePatience must not be negative");
    }
    this.unavailablePatience = patience;
    return this;
  }

  /**
   * Consulted before the first fire of a version minted before this node started; default {@link
   * ResurrectionGuard#NONE}.
   */
  public ReminderEngineBuilder resurrectionGuard(ResurrectionGuard guard) {
    this.resurrectionGuard = Objects.requireNonNull(guard, "guard");
    return this;
  }

  /**
   * Leases and retries of at-least-once deliveries; default {@link AtLeastOnceSettings#DEFAULTS}.
   */
  public ReminderEngineBuilder atLeastOnce(AtLeastOnceSettings atLeastOnce) {
    this.atLeastOnce = Objects.requireNonNull(atLeastOnce, "atLeastOnce");
    return this;
  }

  public ReminderEngine build() {
    return new ReminderEngine(this);
  }
}
