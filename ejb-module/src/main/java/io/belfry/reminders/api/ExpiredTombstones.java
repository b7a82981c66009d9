package io.belfry.reminders.api;

import java.util.List;

/**
 * Tombstones past their TTL that the owning node is about to remove from the store, each as a
 * {@link ReminderActivity.Type#TOMBSTONE_PURGED} activity. Fired synchronously on a Belfry executor
 * thread, never on the firing thread. An observer that archives them must do so durably before it
 * returns, and throw if it cannot: the tombstones then stay in the store and are offered again at a
 * later sweep (same namespace, key and version; a later {@code at}). With no observer they are
 * simply removed.
 *
 * @param tombstones the purge activities, at least one
 */
public record ExpiredTombstones(List<ReminderActivity> tombstones) {

  public ExpiredTombstones {
    tombstones = List.copyOf(tombstones);
  }
}
