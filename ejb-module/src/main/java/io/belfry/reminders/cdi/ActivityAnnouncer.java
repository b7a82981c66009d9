package io.belfry.reminders.cdi;

import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.api.ReminderActivity.Type;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.fire.EngineListener;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.placement.ClusterView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Turns what the engine reports into {@link ReminderActivity} CDI events. Never throws back into
 * the engine: an observer's failure is logged, and the engine carries on.
 */
@ApplicationScoped
public class ActivityAnnouncer implements EngineListener {

  private static final Logger LOG = Logger.getLogger(ActivityAnnouncer.class);

  @Inject Event<ReminderActivity> activity;

  @Inject ClusterView cluster;

  @Override
  public void set(ReminderRecord record) {
    announce(Type.SET, record, null);
  }

  @Override
  public void replaced(ReminderRecord previous, ReminderRecord current) {
    announce(Type.REPLACED, current, "replaced version " + previous.version());
  }

  @Override
  public void cancelled(ReminderRecord tombstone) {
    announce(Type.CANCELLED, tombstone, null);
  }

  @Override
  public void fired(ReminderFired fire) {
    announce(
        Type.FIRED,
        fire.getNamespace(),
        fire.getKey(),
        fire.getFence(),
        fire.getOccurrence(),
        fire.getDueAt(),
        null);
  }

  @Override
  public void deliveryFailed(ReminderFired fire, Throwable failure) {
    announce(
        Type.DELIVERY_FAILED,
        fire.getNamespace(),
        fire.getKey(),
        fire.getFence(),
        fire.getOccurrence(),
        fire.getDueAt(),
        String.valueOf(failure.getMessage()));
  }

  @Override
  public void skipped(ReminderRecord record, long skippedPositions) {
    announce(Type.SKIPPED, record, "skipped " + skippedPositions);
  }

  @Override
  public void purged(ReminderRecord tombstone) {
    announce(Type.TOMBSTONE_PURGED, tombstone, null);
  }

  private void announce(Type type, ReminderRecord record, String detail) {
    announce(
        type,
        record.id().namespace(),
        record.id().key(),
        record.version(),
        record.occurrence(),
        Instant.ofEpochMilli(record.nextDueMillis()),
        detail);
  }

  private void announce(
      Type type,
      String namespace,
      String key,
      long version,
      long occurrence,
      Instant dueAt,
      String detail) {
    try {
      activity.fire(
          new ReminderActivity(
              type,
              namespace,
              key,
              version,
              occurrence,
              dueAt,
              Instant.now(),
              cluster.nodeName(),
              detail));
    } catch (RuntimeException e) {
      LOG.warnf(e, "BELFRY-0330 An observer of %s %s/%s failed", type, namespace, key);
    }
  }
}
