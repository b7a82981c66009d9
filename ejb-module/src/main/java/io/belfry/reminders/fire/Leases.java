package io.belfry.reminders.fire;

import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.model.DeliveryProgress;
import io.belfry.reminders.model.HybridLogicalClock;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.schedule.Clock;
import io.belfry.reminders.schedule.MisfireDecision;
import io.belfry.reminders.store.ReminderStore;
import io.belfry.reminders.store.StoredReminder;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The at-least-once half of firing: lease, deliver, then commit.
 *
 * <p>The idea: where at-most-once commits the fire before delivering it, at-least-once commits a
 * <em>lease</em> first: the entry becomes {@link ReminderState#DELIVERING}, held by this node until
 * the lease expires, under a new version (one conditional replace, so exactly one node wins it, as
 * with a fire). The delivery runs, and only then is the occurrence committed: by the next
 * occurrence or the {@code FIRED} tombstone after a success, by a pending entry due at the back-off
 * time after a failure, or by a {@link ReminderState#DEAD_LETTER} after the last attempt. Each of
 * these is conditional on the entry still being exactly this lease.
 *
 * <p>A lease is armed in the owner's time index at its expiry like any due time. While the holder's
 * delivery runs, the holder renews it ({@link #renewAll}); if the holder dies, the renewals stop,
 * the lease expires, and the owner (a survivor, after failover) leases it again with {@code attempt
 * + 1} and the same fence. An idempotent handler de-duplicates by fence.
 *
 * <p>Thread-safe: {@link #lease} runs on the scheduler's thread under its lock; the settlements run
 * on delivery threads; renewals on the timer. A flight's lock keeps a renewal and a settlement of
 * the same delivery from racing each other.
 */
final class Leases {

  private static final Logger LOG = Logger.getLogger(Leases.class);

  /**
   * A settlement that keeps failing gives up after this long; the lease's expiry then redelivers.
   */
  private static final long SETTLE_PATIENCE_MILLIS = 10_000;

  /** What became of a delivery's outcome. */
  enum Settled {
    /** Success committed: {@code written} is the next occurrence or the FIRED tombstone. */
    COMMITTED,
    /** Failure committed: {@code written} is pending again, due at the retry time. */
    RETRY_SCHEDULED,
    /** The last attempt failed: {@code written} is the dead letter. */
    DEAD_LETTERED,
    /** The entry is no longer this lease (replaced, cancelled, or taken over after expiry). */
    LOST,
    /** The store kept failing; the lease will expire and the occurrence be delivered again. */
    UNSETTLED
  }

  /**
   * @param written what now stands in the store; null when lost or unsettled
   * @param passedOver positions the misfire policy passed over after a success
   */
  record Settlement(Settled outcome, ReminderRecord written, long passedOver) {}

  /** One delivery under way on this node, under the lease its commit wrote. */
  static final class Flight {
    final ReminderRecord lease;
    private boolean settled;

    Flight(ReminderRecord lease) {
      this.lease = lease;
    }

    ReminderId id() {
      return lease.id();
    }
  }

  private final ReminderStore store;
  private final HybridLogicalClock versions;
  private final Clock clock;
  private final String node;
  private final long leaseMillis;
  private final Function<String, RetryPolicy> policies;
  private final ConcurrentMap<ReminderId, Flight> flights = new ConcurrentHashMap<>();

  Leases(
      ReminderStore store,
      HybridLogicalClock versions,
      Clock clock,
      String node,
      Duration lease,
      Function<String, RetryPolicy> policies) {
    this.store = Objects.requireNonNull(store, "store");
    this.versions = Objects.requireNonNull(versions, "versions");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.node = Objects.requireNonNull(node, "node");
    this.leaseMillis = lease.toMillis();
    this.policies = Objects.requireNonNull(policies, "policies");
  }

  /** How often a holder renews its leases: three times per lease, so one missed renewal is fine. */
  long renewalIntervalMillis() {
    return leaseMillis / 3;
  }

  /**
   * Commits the lease of a due, armed, validated entry (a pending occurrence, a retry, or a lease
   * that expired), without waiting for the write: the stage completes when it is decided. Called by
   * {@link Firing}, without the scheduler's lock.
   */
  CompletionStage<Firing.Attempt> lease(StoredReminder live, long now) {
    ReminderRecord record = live.record();
    if (record.state() == ReminderState.DELIVERING && isOwnFlight(record)) {
      // Our own delivery still runs and a renewal failed (the store was unavailable): do not
      // deliver it a second time here; look again when the next renewal is due.
      return CompletableFuture.completedFuture(
          new Firing.Attempt(
              Firing.Outcome.NOT_YET, now + renewalIntervalMillis(), null, null, null, null));
    }
    ReminderRecord successor;
    ReminderFired fire = null;
    if (record.state() == ReminderState.DELIVERING
        && record.attempts() >= policies.apply(record.id().namespace()).maxAttempts()) {
      // The last attempt's holder died or hung: no attempt is left to give it.
      successor =
          record.deadLettered(
              versions.mintAfter(record.version()),
              "the lease of attempt "
                  + record.attempts()
                  + " held by "
                  + record.progress().leaseHolder()
                  + " expired",
              now);
    } else {
      successor = record.leased(versions.mintAfter(record.version()), node, now + leaseMillis, now);
      fire = Firing.fireOf(record, record.fence(), successor.attempts(), now);
    }
    ReminderFired delivered = fire;
    // issued without waiting, like an at-most-once fire's commit: a group's leases share the
    // cluster's round trips
    return store
        .replaceAsync(live, successor)
        .thenApply(
            won ->
                won
                    ? new Firing.Attempt(
                        Firing.Outcome.COMMITTED,
                        record.armAtMillis(),
                        record,
                        successor,
                        null,
                        delivered)
                    : Firing.Attempt.of(Firing.Outcome.LOST));
  }

  /**
   * Registers the delivery of {@code lease} as under way here, from the lease's commit: it is
   * renewed while it waits for a delivery thread and while it runs.
   */
  Flight begin(ReminderRecord lease) {
    Flight flight = new Flight(lease);
    flights.put(lease.id(), flight);
    return flight;
  }

  /** Forgets a delivery that will not run here (the executor refused it). */
  void abandon(Flight flight) {
    synchronized (flight) {
      flight.settled = true;
    }
    flights.remove(flight.id(), flight);
  }

  /** The delivery succeeded: commit the next occurrence or the FIRED tombstone. */
  Settlement succeeded(Flight flight) {
    return settle(
        flight,
        (lease, now) -> {
          MisfireDecision decision = Firing.decide(lease, now);
          long passedOver = decision.skipped() - (decision.deliver() ? 0 : 1);
          ReminderRecord next =
              decision.next().isPresent()
                  ? lease.withNext(
                      versions.mintAfter(lease.version()),
                      decision.next().get().due().toEpochMilli(),
                      decision.next().get().number(),
                      now)
                  : lease.tombstone(ReminderState.FIRED, now);
          return new Settlement(Settled.COMMITTED, next, Math.max(0, passedOver));
        });
  }

  /** The delivery threw {@code failure}: schedule the next attempt, or dead-letter the last. */
  Settlement failed(Flight flight, Throwable failure) {
    String error = DeliveryProgress.describe(failure);
    return settle(
        flight,
        (lease, now) -> {
          RetryPolicy policy = policies.apply(lease.id().namespace());
          if (lease.attempts() >= policy.maxAttempts()) {
            return new Settlement(
                Settled.DEAD_LETTERED,
                lease.deadLettered(versions.mintAfter(lease.version()), error, now),
                0);
          }
          long delay =
              policy.delayMillisAfter(lease.attempts(), ThreadLocalRandom.current().nextDouble());
          return new Settlement(
              Settled.RETRY_SCHEDULED,
              lease.retryAt(versions.mintAfter(lease.version()), now + delay, error, now),
              0);
        });
  }

  /** Extends every lease whose delivery still runs here; drops the ones that were taken away. */
  void renewAll() {
    for (Flight flight : flights.values()) {
      synchronized (flight) {
        if (flight.settled) {
          continue;
        }
        try {
          Optional<StoredReminder> current = store.get(flight.id());
          if (current.isEmpty() || !holds(flight, current.get().record())) {
            LOG.warnf(
                "BELFRY-0331 The lease on %s (fence %d, attempt %d) was taken away while its"
                    + " delivery runs; the delivery's outcome will not be committed",
                flight.id().cacheKey(), flight.lease.fence(), flight.lease.attempts());
            flight.settled = true;
            flights.remove(flight.id(), flight);
            continue;
          }
          long now = clock.millis();
          store.replace(
              current.get(),
              current
                  .get()
                  .record()
                  .renewed(
                      versions.mintAfter(current.get().record().version()),
                      now + leaseMillis,
                      now));
        } catch (RuntimeException e) {
          // The next renewal tries again; two in a row may fail before the lease runs out.
          LOG.debugf(e, "BELFRY-0334 Renewing the lease on %s failed", flight.id().cacheKey());
        }
      }
    }
  }

  /** How many deliveries are under way here; for tests and health. */
  int inFlight() {
    return flights.size();
  }

  private boolean isOwnFlight(ReminderRecord record) {
    Flight flight = flights.get(record.id());
    return flight != null && holds(flight, record);
  }

  /** Whether {@code record} is still the lease {@code flight} delivers under. */
  private boolean holds(Flight flight, ReminderRecord record) {
    return record.state() == ReminderState.DELIVERING
        && record.fence() == flight.lease.fence()
        && record.attempts() == flight.lease.attempts()
        && node.equals(record.progress().leaseHolder());
  }

  @FunctionalInterface
  private interface Outcome {
    Settlement after(ReminderRecord lease, long now);
  }

  private Settlement settle(Flight flight, Outcome outcome) {
    long pause = 25;
    long giveUpAt = clock.millis() + SETTLE_PATIENCE_MILLIS;
    Settlement unconfirmed = null;
    try {
      while (true) {
        synchronized (flight) {
          if (flight.settled) {
            return new Settlement(Settled.LOST, null, 0);
          }
          try {
            Optional<StoredReminder> current =
                unconfirmed != null ? store.readBack(flight.id()) : store.get(flight.id());
            if (unconfirmed != null
                && current.isPresent()
                && current.get().record().equals(unconfirmed.written())) {
              // the write that failed with an unknown outcome had been applied
              flight.settled = true;
              return unconfirmed;
            }
            if (current.isEmpty() || !holds(flight, current.get().record())) {
              flight.settled = true;
              return new Settlement(Settled.LOST, null, 0);
            }
            Settlement settlement = outcome.after(current.get().record(), clock.millis());
            unconfirmed = settlement;
            if (store.replace(current.get(), settlement.written())) {
              flight.settled = true;
              return settlement;
            }
            unconfirmed = null;
            // Lost a race with a renewal of our own or a change by someone else: read again.
            continue;
          } catch (RuntimeException e) {
            if (clock.millis() >= giveUpAt) {
              LOG.warnf(
                  e,
                  "BELFRY-0333 Could not commit the outcome of %s (fence %d, attempt %d); its"
                      + " lease will expire and it will be delivered again",
                  flight.id().cacheKey(),
                  flight.lease.fence(),
                  flight.lease.attempts());
              flight.settled = true;
              return new Settlement(Settled.UNSETTLED, null, 0);
            }
          }
        }
        Thread.sleep(pause);
        pause = Math.min(pause * 2, 400);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      flight.settled = true;
      return new Settlement(Settled.UNSETTLED, null, 0);
    } finally {
      flights.remove(flight.id(), flight);
    }
  }
}
