package io.belfry.audit;

import io.belfry.reminders.api.ReminderActivity;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * An activity on its way to the archive, with the identity that makes re-writes idempotent: a
 * record replayed after a crash or a failed batch finds its {@code activityId} already written and
 * is skipped.
 *
 * @param activityId unique per activity, assigned when it is queued
 * @param activity what happened
 * @param queuedAt when it was queued (for the write-lag metric)
 */
public record PendingAudit(String activityId, ReminderActivity activity, Instant queuedAt) {

  public PendingAudit {
    Objects.requireNonNull(activityId, "activityId");
    Objects.requireNonNull(activity, "activity");
    Objects.requireNonNull(queuedAt, "queuedAt");
  }

  /** For a fire, how late it was (event time minus due time); {@code null} for other types. */
  public Long latenessMillis() {
    if (activity.type() != ReminderActivity.Type.FIRED || activity.dueAt() == null) {
      return null;
    }
    return Duration.between(activity.dueAt(), activity.at()).toMillis();
  }
}
