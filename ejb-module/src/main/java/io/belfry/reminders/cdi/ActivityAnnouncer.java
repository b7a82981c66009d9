package io.belfry.reminders.cdi;

import io.belfry.reminders.api.ExpiredTombstones;
import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.api.ReminderActivity.Type;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.archive.NodeArchive;
import io.belfry.reminders.fire.EngineListener;
import io.belfry.reminders.model.DeliveryProgress;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.placement.ClusterView;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.security.Principal;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Turns what the engine reports into {@link ReminderActivity} CDI events. Never throws back into
 * the engine, except from {@link #archive}, where an observer's failure means "keep the
 * tombstones".
 *
 * <p>Changes (set, replace, cancel) are announced on the caller's thread, so the container's caller
 * principal is the one who made them.
 *
 * <p>A deployment without the audit module (an application WAR built from the user guide) also
 * sends each activity to the node's archive ({@link NodeArchive}), so that every namespace is
 * archived, and archived once: each activity is announced by the one deployment that made it.
 */
@ApplicationScoped
public class ActivityAnnouncer implements EngineListener {

  private static final Logger LOG = Logger.getLogger(ActivityAnnouncer.class);

  @Inject Event<ReminderActivity> activity;

  @Inject Event<ExpiredTombstones> expiredTombstones;

  @Inject ClusterView cluster;

  @Inject Principal caller;

  @Inject NodeArchive nodeArchive;

  /**
   * Whether this deployment bundles the audit module, which then observes the events. Package-
   * private for the benchmarks' announcer outside the container, which archives through its own
   * observer and has no node archive.
   */
  boolean archivesItself;

  @PostConstruct
  void findArchive() {
    archivesItself = nodeArchive.archivesItself();
  }

  @Override
  public void set(ReminderRecord record) {
    announce(change(Type.SET, record, null));
  }

  @Override
  public void replaced(ReminderRecord previous, ReminderRecord current) {
    announce(change(Type.REPLACED, current, "replaced version " + previous.version()));
  }

  @Override
  public void cancelled(ReminderRecord tombstone) {
    announce(change(Type.CANCELLED, tombstone, null));
  }

  @Override
  public void fired(ReminderFired fire) {
    announce(of(Type.FIRED, fire, null));
  }

  @Override
  public void deliveryFailed(ReminderFired fire, Throwable failure) {
    announce(of(Type.DELIVERY_FAILED, fire, String.valueOf(failure.getMessage())));
  }

  @Override
  public void delivering(ReminderFired fire) {
    announce(of(Type.DELIVERING, fire, "attempt " + fire.getAttempt()));
  }

  @Override
  public void delivered(ReminderFired fire) {
    announce(of(Type.DELIVERED, fire, "attempt " + fire.getAttempt()));
  }

  @Override
  public void retryScheduled(ReminderFired fire, Throwable failure, long retryAtMillis) {
    announce(
        of(
            Type.RETRY_SCHEDULED,
            fire,
            "attempt "
                + fire.getAttempt()
                + " failed: "
                + DeliveryProgress.describe(failure)
                + "; next attempt at "
                + Instant.ofEpochMilli(retryAtMillis)));
  }

  @Override
  public void deadLettered(ReminderRecord deadLetter) {
    announce(
        of(
            Type.DEAD_LETTERED,
            deadLetter,
            "after " + deadLetter.attempts() + " attempts: " + deadLetter.progress().lastError(),
            null));
  }

  @Override
  public void redeliveryRequested(ReminderRecord pending) {
    announce(change(Type.REDELIVERY_REQUESTED, pending, null));
  }

  @Override
  public void skipped(ReminderRecord record, long skippedPositions) {
    announce(of(Type.SKIPPED, record, "skipped " + skippedPositions, null));
  }

  @Override
  public void archive(List<ReminderRecord> tombstones) {
    List<ReminderActivity> purged =
        tombstones.stream().map(t -> of(Type.TOMBSTONE_PURGED, t, null, null)).toList();
    if (archivesItself) {
      expiredTombstones.fire(new ExpiredTombstones(purged));
      return;
    }
    try {
      nodeArchive.archiveNow(purged);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      // the engine keeps the tombstones and offers them again at a later sweep
      throw new IllegalStateException("the node's archive did not take the tombstones: " + e, e);
    }
  }

  private void announce(ReminderActivity event) {
    if (!archivesItself) {
      nodeArchive.record(event);
    }
    try {
      activity.fire(event);
    } catch (RuntimeException e) {
      LOG.warnf(
          e,
          "BELFRY-0330 An observer of %s %s/%s failed",
          event.type(),
          event.namespace(),
          event.key());
    }
  }

  private ReminderActivity change(Type type, ReminderRecord record, String detail) {
    return of(type, record, detail, callerName());
  }

  private ReminderActivity of(Type type, ReminderRecord record, String detail, String principal) {
    return new ReminderActivity(
        type,
        record.id().namespace(),
        record.id().key(),
        record.fence(),
        record.occurrence(),
        Instant.ofEpochMilli(record.nextDueMillis()),
        Instant.now(),
        cluster.nodeName(),
        detail,
        principal);
  }

  private ReminderActivity of(Type type, ReminderFired fire, String detail) {
    return new ReminderActivity(
        type,
        fire.getNamespace(),
        fire.getKey(),
        fire.getFence(),
        fire.getOccurrence(),
        fire.getDueAt(),
        Instant.now(),
        cluster.nodeName(),
        detail,
        null);
  }

  /** The caller as the container knows it; {@code null} where no security context applies. */
  private String callerName() {
    try {
      return caller.getName();
    } catch (RuntimeException e) {
      return null;
    }
  }
}
