package io.belfry.reminders.cdi;

import io.belfry.reminders.api.Namespace;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.config.BelfryExecutor;
import io.belfry.reminders.fire.Delivery;
import io.belfry.reminders.sink.Sinks;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * Delivers a fire to the application as the CDI event {@link ReminderFired}, qualified with its
 * {@link Namespace}: synchronous observers run on this (the delivery executor's) thread and an
 * exception of theirs makes the delivery fail; asynchronous observers ({@code @ObservesAsync}) are
 * notified on the same executor, and their failures are logged and announced as well.
 *
 * <p>Then the namespace's sinks ({@link Sinks}: a webhook) get the fire, once the synchronous
 * observers have returned. A sink that fails makes the delivery fail like an observer that throws:
 * the engine audits it under at-most-once and retries the whole delivery under at-least-once.
 */
@ApplicationScoped
public class CdiDelivery implements Delivery {

  private static final Logger LOG = Logger.getLogger(CdiDelivery.class);

  @Inject Event<ReminderFired> fired;

  @Inject @BelfryExecutor ManagedExecutorService executor;

  @Inject ActivityAnnouncer announcer;

  @Inject Sinks sinks;

  @Override
  public void deliver(ReminderFired fire) {
    Event<ReminderFired> selected = fired.select(Namespace.Literal.of(fire.getNamespace()));
    selected
        .fireAsync(fire, NotificationOptions.ofExecutor(executor))
        .whenComplete(
            (delivered, failure) -> {
              if (failure != null) {
                LOG.warnf(
                    failure,
                    "BELFRY-0320 An asynchronous observer failed on %s/%s (fence %d)",
                    fire.getNamespace(),
                    fire.getKey(),
                    fire.getFence());
                announcer.deliveryFailed(fire, failure);
              }
            });
    selected.fire(fire);
    sinks.forward(fire);
  }
}
