package io.belfry.reminders.fire;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.model.HybridLogicalClock;
import io.belfry.reminders.model.ReminderCodecException;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.placement.Ownership;
import io.belfry.reminders.schedule.Bounds;
import io.belfry.reminders.schedule.MisfireDecision;
import io.belfry.reminders.schedule.MisfirePlan;
import io.belfry.reminders.schedule.Occurrence;
import io.belfry.reminders.schedule.TimeIndex;
import io.belfry.reminders.schedule.Timeline;
import io.belfry.reminders.store.ReminderStore;
import io.belfry.reminders.store.StoredReminder;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.jboss.logging.Logger;

/**
 * Validated, tombstone-first firing of one due hint.
 *
 * <p>The idea: a hint from the time index is only a suggestion. The live entry is re-read and the
 * fire proceeds only if it exists, is pending, carries the hint's version, this node is still the
 * primary owner of its segment, and its due time has come. The fire is then <em>committed
 * first</em>: one atomic conditional replace of exactly the bytes read, by the tombstone (FIRED, or
 * SKIPPED when the misfire policy delivers nothing and nothing follows) or by the next occurrence
 * under a newly minted version. Of all nodes and callers racing on the entry (a replace by set, a
 * cancel, a former owner that has not yet seen the new topology) exactly one conditional write
 * wins, and only the winner of the fire's commit delivers: at most once by construction, exactly
 * once when nothing fails between commit and delivery (cf. db-scheduler's "pick with optimistic
 * version, then execute"). An {@link DeliveryMode#AT_LEAST_ONCE} reminder commits a lease instead,
 * the same way; see {@link Leases}.
 *
 * <p>Stateless apart from its collaborators; thread-safe.
 */
public final class Firing {

  private static final Logger LOG = Logger.getLogger(Firing.class);

  /** What became of one hint. */
  public enum Outcome {
    /** The entry is gone, ended, or at another version: nothing to do, drop the hint. */
    STALE,
    /** Another node owns the segment now: drop the hint, the owner fires it. */
    NOT_OWNER,
    /** Not due yet (the clock went backwards): re-arm at {@link Attempt#dueMillis()}. */
    NOT_YET,
    /** Someone else changed the entry first: drop the hint, the new value brings its own. */
    LOST,
    /** The store failed; whether the commit happened is unknown: re-arm, the retry re-reads. */
    FAILED,
    /** This node won the commit; deliver {@link Attempt#fire()} if present. */
    COMMITTED
  }

  /**
   * The result of {@link #attemptAsync}.
   *
   * @param due the version that was due (null unless committed)
   * @param successor what replaced it: a tombstone or the next occurrence (null unless committed)
   * @param decision the misfire decision (null unless committed)
   * @param fire what to deliver; null when not committed or when the policy skips this occurrence
   */
  public record Attempt(
      Outcome outcome,
      long dueMillis,
      ReminderRecord due,
      ReminderRecord successor,
      MisfireDecision decision,
      ReminderFired fire) {

    static Attempt of(Outcome outcome) {
      return new Attempt(outcome, 0, null, null, null, null);
    }
  }

  private final ReminderStore store;
  private final Ownership ownership;
  private final HybridLogicalClock versions;
  private final Leases leases;

  Firing(ReminderStore store, Ownership ownership, HybridLogicalClock versions, Leases leases) {
    this.store = Objects.requireNonNull(store, "store");
    this.ownership = Objects.requireNonNull(ownership, "ownership");
    this.versions = Objects.requireNonNull(versions, "versions");
    this.leases = Objects.requireNonNull(leases, "leases");
  }

  /**
   * Validates {@code hint} at {@code nowMillis} and, if it holds, issues the commit of its fire
   * without waiting for it: the validation runs now, in the caller's thread, and the returned stage
   * completes when the conditional replace has been decided (at once for every outcome but a commit
   * or a lease). A run issues the commits of all its due hints this way before it waits for any, so
   * that a burst shares the cluster's round trips instead of paying one replicated write after the
   * other (group commit).
   */
  public CompletionStage<Attempt> attemptAsync(TimeIndex.Entry hint, long nowMillis) {
    String key = hint.cacheKey();
    try {
      Optional<StoredReminder> live = store.get(hint.id());
      if (live.isEmpty()) {
        return decided(Attempt.of(Outcome.STALE));
      }
      ReminderRecord record = live.get().record();
      if (!record.state().isArmed() || record.version() != hint.version()) {
        return decided(Attempt.of(Outcome.STALE));
      }
      if (!ownership.isPrimaryOwner(key)) {
        return decided(Attempt.of(Outcome.NOT_OWNER));
      }
      if (record.armAtMillis() > nowMillis) {
        return decided(new Attempt(Outcome.NOT_YET, record.armAtMillis(), null, null, null, null));
      }
      if (record.progress() != null) {
        // a retry, or a lease that expired: the occurrence was decided for delivery already
        return settled(hint, leases.lease(live.get(), nowMillis));
      }
      MisfireDecision decision = decide(record, nowMillis);
      if (decision.deliver() && record.delivery() == DeliveryMode.AT_LEAST_ONCE) {
        return settled(hint, leases.lease(live.get(), nowMillis));
      }
      ReminderRecord successor = successor(record, decision, nowMillis);
      // Built before the commit: once the replace has won, nothing may fail before delivery.
      ReminderFired fire =
          decision.deliver() ? fireOf(record, record.version(), 1, nowMillis) : null;
      return settled(
          hint,
          store
              .replaceAsync(live.get(), successor)
              .thenApply(
                  won ->
                      won
                          ? new Attempt(
                              Outcome.COMMITTED,
                              record.nextDueMillis(),
                              record,
                              successor,
                              decision,
                              fire)
                          : Attempt.of(Outcome.LOST)));
    } catch (ReminderCodecException e) {
      LOG.errorf(e, "BELFRY-0201 Reminder %s cannot be read; it will not fire", key);
      return decided(Attempt.of(Outcome.STALE));
    } catch (RuntimeException e) {
      return decided(failed(hint, e));
    }
  }

  /** {@code commit}, a store failure turned into {@link Outcome#FAILED}. */
  private static CompletionStage<Attempt> settled(
      TimeIndex.Entry hint, CompletionStage<Attempt> commit) {
    return commit.handle((attempt, failure) -> failure != null ? failed(hint, failure) : attempt);
  }

  private static CompletionStage<Attempt> decided(Attempt attempt) {
    return CompletableFuture.completedFuture(attempt);
  }

  /** E.g. a timeout while the topology changes: the replace may or may not have happened. */
  private static Attempt failed(TimeIndex.Entry hint, Throwable failure) {
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    String key = hint.cacheKey();
    // one line: in a minority partition this repeats for every due reminder until the heal
    LOG.warnf("BELFRY-0202 Firing %s failed; it will be retried: %s", key, cause);
    LOG.debugf(cause, "BELFRY-0202 Firing %s failed", key);
    return new Attempt(Outcome.FAILED, hint.dueMillis(), null, null, null, null);
  }

  /** The misfire policy's decision on the occurrence {@code record} is due in, at {@code now}. */
  static MisfireDecision decide(ReminderRecord record, long nowMillis) {
    Duration deadline =
        record.deadlineMillis() == null ? null : Duration.ofMillis(record.deadlineMillis());
    return MisfirePlan.decide(
        timelineOf(record),
        dueOf(record),
        Instant.ofEpochMilli(nowMillis),
        record.misfire(),
        deadline);
  }

  /**
   * What replaces a due version that came back from a store and must not fire, the {@link
   * ResurrectionGuard} having found how it {@code end}ed. Cancelled (or replaced): its tombstone.
   * Fired or skipped: that was one occurrence, not the reminder, so a recurring reminder moves on
   * as that fire did, to its first position after now under a new version; only a series with no
   * position left ends. Whatever the misfire policy: the positions between this one and now belong
   * to the history the store lost, which may have fired them, and catching them up (FIRE_ALL) would
   * fire them twice.
   */
  ReminderRecord afterOutlived(ReminderRecord record, ReminderState end, long nowMillis) {
    if (end != ReminderState.CANCELLED) {
      Optional<Occurrence> next =
          MisfirePlan.decide(
                  timelineOf(record),
                  dueOf(record),
                  Instant.ofEpochMilli(nowMillis),
                  MisfirePolicy.FIRE_ONCE,
                  null)
              .next();
      if (next.isPresent()) {
        return record.withNext(
            versions.mintAfter(record.version()),
            next.get().due().toEpochMilli(),
            next.get().number(),
            nowMillis);
      }
    }
    return record.tombstone(end, nowMillis);
  }

  private static Timeline timelineOf(ReminderRecord record) {
    return Timeline.of(
        record.schedule(),
        new Bounds(
            record.untilMillis() == null ? null : Instant.ofEpochMilli(record.untilMillis()),
            record.maxOccurrences() == null ? null : record.maxOccurrences().longValue()));
  }

  private static Occurrence dueOf(ReminderRecord record) {
    return new Occurrence(Instant.ofEpochMilli(record.nextDueMillis()), record.occurrence());
  }

  private ReminderRecord successor(
      ReminderRecord record, MisfireDecision decision, long nowMillis) {
    if (decision.next().isPresent()) {
      Occurrence next = decision.next().get();
      return record.withNext(
          versions.mintAfter(record.version()),
          next.due().toEpochMilli(),
          next.number(),
          nowMillis);
    }
    return record.tombstone(
        decision.deliver() ? ReminderState.FIRED : ReminderState.SKIPPED, nowMillis);
  }

  /** What a payload without a declared type is delivered as. */
  static final String DEFAULT_CONTENT_TYPE = "application/octet-stream";

  /** The fire of {@code record}'s due occurrence: attempt {@code attempt} under {@code fence}. */
  static ReminderFired fireOf(ReminderRecord record, long fence, int attempt, long nowMillis) {
    return new ReminderFired(
        record.id().namespace(),
        record.id().key(),
        record.payload(),
        record.contentType() == null ? DEFAULT_CONTENT_TYPE : record.contentType(),
        fence,
        Instant.ofEpochMilli(record.nextDueMillis()),
        Instant.ofEpochMilli(nowMillis),
        record.occurrence(),
        attempt);
  }
}
