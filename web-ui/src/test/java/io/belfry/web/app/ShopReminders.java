package io.belfry.web.app;

import io.belfry.reminders.api.Namespace;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ServesNamespaces;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An application as the user guide builds one, deployed beside {@code belfry.war} by {@code
 * ApplicationNamespaceIT}: it serves its own namespace and keeps the keys of the fires it observes.
 */
@ApplicationScoped
@ServesNamespaces(ShopReminders.NAMESPACE)
public class ShopReminders {

  public static final String NAMESPACE = "shop-app";

  private final List<String> fired = new CopyOnWriteArrayList<>();

  void onFire(@Observes @Namespace(NAMESPACE) ReminderFired fire) {
    fired.add(fire.getKey() + "=" + fire.payloadAsString());
  }

  /** Each fire observed, as {@code key=payload}. */
  public List<String> fired() {
    return fired;
  }
}
