package io.belfry.reminders.fire;

import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.schedule.TimeIndex;
import io.belfry.reminders.store.ReminderStore;
import io.belfry.reminders.store.StoredReminder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The resurrection guard's side of a run: due versions minted before this node started (see {@link
 * Recovery#mintedBeforeStart()}) are checked against the {@link ResurrectionGuard} in one batch
 * before they fire, and those it shows outlived are passed over without firing. The guard never
 * holds fires back: if it cannot answer, they fire unchecked.
 *
 * <p>Runs without the scheduler's lock, as part of the run that commits what is due; thread-safe.
 */
final class OutlivedVersions {

  // The scheduler's log category, as before these classes were split out of it.
  private static final Logger LOG = Logger.getLogger(Scheduler.class);

  private final ReminderStore store;
  private final ResurrectionGuard guard;
  private final Firing firing;

  OutlivedVersions(ReminderStore store, ResurrectionGuard guard, Firing firing) {
    this.store = store;
    this.guard = guard;
    this.firing = firing;
  }

  /** The guard's verdict on versions minted before this node started; none if it cannot tell. */
  Map<ReminderId, ReminderState> verdict(List<TimeIndex.Entry> hints) {
    try {
      return guard.outlived(hints.stream().map(this::candidateOf).toList());
    } catch (RuntimeException e) {
      // Holding fires until the archive answers would make firing depend on the database; a
      // resurrection needs a lost store index, a purged tombstone and this outage at once.
      LOG.warnf(
          e,
          "BELFRY-0321 Could not check %d reminders against the audit archive; firing them"
              + " unchecked",
          hints.size());
      return Map.of();
    }
  }

  /**
   * What the archive knows a hint by: its fence, which an at-least-once delivery's steps share (the
   * archive records their activities under it), else the version itself.
   */
  private ResurrectionGuard.Candidate candidateOf(TimeIndex.Entry hint) {
    ReminderId id = hint.id();
    try {
      Optional<StoredReminder> live = store.get(id);
      if (live.isPresent() && live.get().record().version() == hint.version()) {
        return new ResurrectionGuard.Candidate(id, live.get().record().fence());
      }
    } catch (RuntimeException e) {
      // the attempt re-reads and reports it
    }
    return new ResurrectionGuard.Candidate(id, hint.version());
  }

  /**
   * Passes over a resurrected version without firing it: what {@link Firing#afterOutlived} makes of
   * it (a tombstone, or a recurring reminder's next occurrence) replaces exactly the pending
   * version the hint names, as a fire's commit would. Returns false if the store failed.
   */
  boolean bury(TimeIndex.Entry hint, ReminderState end, long now) {
    try {
      // What the archive shows outlived may be this node's replica lagging behind the others: a
      // joiner's file store can keep an older value than the one it was sent, and serves it once
      // the entry leaves memory. Burying it then would overwrite the acknowledged newer version on
      // every replica (ChaosClusterIT lost one so, 2026-11-27). So the replicas are settled on
      // their newest first; if they differed, that newest is written back everywhere and its
      // write event arms it, and the version here is simply stale.
      if (store.settleReplicas(hint.id())) {
        LOG.warnf(
            "BELFRY-0325 Reminder %s version %d was older on this node than on another replica:"
                + " the replicas were settled on the newest instead of burying it",
            hint.cacheKey(), hint.version());
        return true;
      }
      Optional<StoredReminder> live = store.get(hint.id());
      if (live.isEmpty()
          || !live.get().record().state().isArmed()
          || live.get().record().version() != hint.version()) {
        return true;
      }
      ReminderRecord successor = firing.afterOutlived(live.get().record(), end, now);
      if (!store.replace(live.get(), successor)) {
        return true;
      }
      if (!successor.isTombstone()) {
        LOG.warnf(
            "BELFRY-0323 Reminder %s version %d came back from a store, but the audit archive"
                + " shows its occurrence %d %s: moved on to occurrence %d due %s without firing",
            hint.cacheKey(),
            hint.version(),
            live.get().record().occurrence(),
            end.name().toLowerCase(),
            successor.occurrence(),
            Instant.ofEpochMilli(successor.nextDueMillis()));
      } else {
        LOG.warnf(
            "BELFRY-0324 Reminder %s version %d came back from a store, but the audit archive"
                + " shows it %s: buried as %s without firing",
            hint.cacheKey(),
            hint.version(),
            end == ReminderState.CANCELLED ? "cancelled or replaced" : end.name().toLowerCase(),
            end);
      }
      return true;
    } catch (RuntimeException e) {
      LOG.warnf(e, "BELFRY-0322 Burying resurrected reminder %s failed; retried", hint.cacheKey());
      return false;
    }
  }
}
