package io.belfry.web.console;

import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.notification.NotificationVariant;

/** The console's short notices of what an action did, shown at the top for four seconds. */
public final class Notices {

  private Notices() {}

  public static void show(String text, NotificationVariant variant) {
    Notification notification = Notification.show(text, 4000, Notification.Position.TOP_CENTER);
    notification.addThemeVariants(variant);
  }
}
