package io.belfry.web.console;

import com.vaadin.flow.component.Component;
import com.vaadin.flow.component.UI;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Keeps a view up to date by server push while it is attached: every period, {@code read} runs on
 * Belfry's scheduler (never holding the UI lock) and {@code show} applies the result through {@code
 * UI.access}. Stops when the view is detached.
 */
public final class LiveRefresh {

  private LiveRefresh() {}

  public static <T> void whileAttached(
      Component view,
      ManagedScheduledExecutorService scheduler,
      long periodMillis,
      Supplier<T> read,
      Consumer<T> show) {
    ScheduledFuture<?>[] running = new ScheduledFuture<?>[1];
    view.addAttachListener(
        attach -> {
          UI ui = attach.getUI();
          running[0] =
              scheduler.scheduleWithFixedDelay(
                  () -> {
                    T value = read.get();
                    ui.access(() -> show.accept(value));
                  },
                  periodMillis,
                  periodMillis,
                  TimeUnit.MILLISECONDS);
        });
    view.addDetachListener(
        detach -> {
          if (running[0] != null) {
            running[0].cancel(false);
          }
        });
  }
}
