package io.belfry.reminders.fire;

import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderState;
import java.util.List;
import java.util.Map;

/**
 * A second opinion, from a record kept outside the cache, on pending versions that may be
 * resurrections. An Infinispan file store that lost or rebuilt its index can bring back an older
 * value of a key (STACK-NOTES pitfall 9); once the tombstone that ended it has been purged, nothing
 * in the cache says that version already fired or was cancelled. The audit archive does.
 *
 * <p>The scheduler asks before the first fire of every version minted before this node started (the
 * only versions a restart can bring back), in one batch per run, never for versions written while
 * it runs. Implemented by the audit module; without it, {@link #NONE} lets everything fire.
 */
@FunctionalInterface
public interface ResurrectionGuard {

  /** A pending version about to fire. */
  record Candidate(ReminderId id, long version) {}

  /**
   * The candidates that must not fire, each with how it ended: {@code FIRED}, {@code SKIPPED} or
   * {@code CANCELLED} when the record shows how that very version ended, {@code CANCELLED} when it
   * shows a newer version of the key (the candidate was replaced). A newer version that ended,
   * replaced or parked the key must win over the very version's {@code FIRED} or {@code SKIPPED}:
   * on those the scheduler moves a recurring reminder on to its next occurrence instead of ending
   * it (only that occurrence is known to be done), which would revive a series cancelled later.
   *
   * @throws RuntimeException if the record cannot be read now; the scheduler then fires the
   *     candidates (the guard never holds fires back)
   */
  Map<ReminderId, ReminderState> outlived(List<Candidate> candidates);

  /** No record to consult: every candidate fires. */
  ResurrectionGuard NONE = candidates -> Map.of();
}
