package io.belfry.reminders.cdi;

import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.placement.ClusterView;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.util.TypeLiteral;
import java.lang.annotation.Annotation;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The real {@link ActivityAnnouncer} outside the container, for benchmarks: what CDI injects is
 * replaced by an event that calls one observer synchronously, on the engine's thread, as Weld does
 * for a synchronous observer, and by a cluster view that only knows the node's name; the observer
 * archives, as the audit module does in a deployment that bundles it.
 */
public final class ActivityAnnouncers {

  private ActivityAnnouncers() {}

  /** An announcer whose every {@link ReminderActivity} goes to {@code observer}. */
  public static ActivityAnnouncer to(Consumer<ReminderActivity> observer, String nodeName) {
    ActivityAnnouncer announcer = new ActivityAnnouncer();
    announcer.activity = new SynchronousEvent(observer);
    // the observer is the archive, as in a deployment that bundles the audit module: no node
    // archive to forward to (without this every announcement failed on the missing one, and the
    // benchmarks' audited node wrote no audit at all)
    announcer.archivesItself = true;
    announcer.cluster =
        new ClusterView() {
          @Override
          public String nodeName() {
            return nodeName;
          }
        };
    return announcer;
  }

  private record SynchronousEvent(Consumer<ReminderActivity> observer)
      implements Event<ReminderActivity> {

    @Override
    public void fire(ReminderActivity event) {
      observer.accept(event);
    }

    @Override
    public <U extends ReminderActivity> CompletionStage<U> fireAsync(U event) {
      throw new UnsupportedOperationException("fireAsync");
    }

    @Override
    public <U extends ReminderActivity> CompletionStage<U> fireAsync(
        U event, NotificationOptions options) {
      throw new UnsupportedOperationException("fireAsync");
    }

    @Override
    public Event<ReminderActivity> select(Annotation... qualifiers) {
      throw new UnsupportedOperationException("select");
    }

    @Override
    public <U extends ReminderActivity> Event<U> select(
        Class<U> subtype, Annotation... qualifiers) {
      throw new UnsupportedOperationException("select");
    }

    @Override
    public <U extends ReminderActivity> Event<U> select(
        TypeLiteral<U> subtype, Annotation... qualifiers) {
      throw new UnsupportedOperationException("select");
    }
  }
}
