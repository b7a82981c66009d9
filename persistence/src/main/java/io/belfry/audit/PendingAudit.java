package io.belfry.audit;

import io.belfry.reminders.api.ReminderActivity;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * An activity on its way to the archive, with the identity that makes re-writes idempotent: a
 * record replayed after a crash or a failed batch finds its {@code activityId} already written and
 * is skipped.
 *
 * @param activityId unique per activity: made when it is queued ({@link ActivityIds}), or derived
 *     from the tombstone for a purge, which may be offered again
 * @param activity what happened
 * @param queuedAt when it was queued (for the write-lag metric)
 */
public record PendingAudit(String activityId, ReminderActivity activity, Instant queuedAt) {

  public PendingAudit {
    Objects.requireNonNull(activityId, "activityId");
    Objects.requireNonNull(activity, "activity");
    Objects.requireNonNull(queuedAt, "queuedAt");
  }

  /** A record of {@code activity} queued at {@code queuedAt}, with its activity id. */
  public static PendingAudit of(ReminderActivity activity, Instant queuedAt) {
    String id =
        activity.type() == ReminderActivity.Type.TOMBSTONE_PURGED
            // the same tombstone offered again after a failed removal is the same activity
            ? UUID.nameUUIDFromBytes(
                    String.join(
                            "\u0000",
                            "purged",
                            activity.namespace(),
                            activity.key(),
                            Long.toString(activity.version()))
                        .getBytes(StandardCharsets.UTF_8))
                .toString()
            : ActivityIds.timeOrdered(queuedAt);
    return new PendingAudit(id, activity, queuedAt);
  }

  /** For a fire, how late it was (event time minus due time); {@code null} for other types. */
  public Long latenessMillis() {
    if (activity.type() != ReminderActivity.Type.FIRED || activity.dueAt() == null) {
      return null;
    }
    return Duration.between(activity.dueAt(), activity.at()).toMillis();
  }
}
