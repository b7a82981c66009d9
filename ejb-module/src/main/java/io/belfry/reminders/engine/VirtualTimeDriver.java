package io.belfry.reminders.engine;

import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.schedule.Clock;
import io.belfry.reminders.schedule.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Moves virtual time for an engine built without a timer on a {@link SettableClock}: the test kit's
 * {@code VirtualBelfry} in a test's JVM, and a deployment on a test server started with virtual
 * time ({@code io.belfry.reminders.virtualtime}). Both step the same way, so an in-JVM test and an
 * Arquillian test of the same schedule see the same fires at the same instants.
 *
 * <p>{@link #advanceTo(Instant)} stops at every instant something is due on the way, in order, and
 * runs the engine there, so every fire happens at its due time as on a node that is up the whole
 * time. Not thread-safe: one driver at a time (callers synchronize).
 */
public final class VirtualTimeDriver {

  /** One listing page when looking for the next due reminder. */
  private static final int PAGE = 1_000;

  private final Supplier<ReminderEngine> engine;
  private final SettableClock clock;
  private final Duration scanInterval;
  private final Predicate<String> servedNamespaces;

  /**
   * @param engine the engine to run (a supplier: the kit replaces it at a restart)
   * @param clock the engine's clock, which only this driver moves
   * @param scanInterval the engine's sweep interval: how far to step when something is due now but
   *     only a sweep will re-arm it
   * @param servedNamespaces the namespaces the engine fires; others' due times are not waited for
   */
  public VirtualTimeDriver(
      Supplier<ReminderEngine> engine,
      SettableClock clock,
      Duration scanInterval,
      Predicate<String> servedNamespaces) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.scanInterval = Objects.requireNonNull(scanInterval, "scanInterval");
    this.servedNamespaces = Objects.requireNonNull(servedNamespaces, "servedNamespaces");
  }

  /** The clock this driver moves, for readers of "now" (the deployment's validator, say). */
  public Clock clock() {
    return clock;
  }

  /** Virtual now. */
  public Instant now() {
    return clock.now();
  }

  /**
   * Moves virtual time forward by {@code step}, firing everything that comes due on the way at its
   * due time.
   *
   * @return how many fires were delivered
   */
  public int advanceBy(Duration step) {
    Objects.requireNonNull(step, "step");
    if (step.isNegative()) {
      throw new IllegalArgumentException("virtual time only moves forward, not by " + step);
    }
    return advanceTo(now().plus(step));
  }

  /**
   * Moves virtual time forward to {@code target}, stopping at each instant something is due on the
   * way, in order, and firing it there.
   *
   * @return how many fires were delivered
   */
  public int advanceTo(Instant target) {
    Objects.requireNonNull(target, "target");
    if (target.isBefore(now())) {
      throw new IllegalArgumentException(
          "virtual time only moves forward: " + target + " is before " + now());
    }
    int last = fireDue();
    int delivered = last;
    while (true) {
      Optional<Instant> next = nextDue();
      if (next.isEmpty() || next.get().isAfter(target)) {
        break;
      }
      Instant now = now();
      // Something due now that the last run left (the backlog rate, or an entry only a sweep will
      // re-arm) needs time to move on: the next millisecond if that run fired something, else a
      // scan interval.
      Instant step =
          next.get().isAfter(now)
              ? next.get()
              : now.plus(last > 0 ? Duration.ofMillis(1) : scanInterval);
      if (step.isAfter(target)) {
        break;
      }
      clock.set(step);
      last = fireDue();
      delivered += last;
    }
    clock.set(target);
    return delivered + fireDue();
  }

  /**
   * Fires what is due at virtual now, without moving time; runs the engine until it has nothing
   * more to do (a catch-up under {@code FIRE_ALL} takes several runs).
   *
   * @return how many fires were delivered
   */
  public int fireDue() {
    int delivered = 0;
    for (int run = engine.get().tick(); run > 0; run = engine.get().tick()) {
      delivered += run;
    }
    return delivered;
  }

  /**
   * When the engine will next have something to do (a fire, a retry) in a namespace it serves, if
   * anything is pending. Lists the store: fine for a test's reminders, slow for millions.
   */
  public Optional<Instant> nextDue() {
    long earliest = Long.MAX_VALUE;
    String after = null;
    do {
      RecordPage page = engine.get().list(new ListQuery(null, null, null, null, null, after, PAGE));
      for (ReminderRecord record : page.items()) {
        if (record.state().isArmed() && servedNamespaces.test(record.id().namespace())) {
          earliest = Math.min(earliest, record.armAtMillis());
        }
      }
      after = page.nextAfterKey().orElse(null);
    } while (after != null);
    return earliest == Long.MAX_VALUE
        ? Optional.empty()
        : Optional.of(Instant.ofEpochMilli(earliest));
  }
}
