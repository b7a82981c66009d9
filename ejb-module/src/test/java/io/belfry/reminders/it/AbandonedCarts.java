package io.belfry.reminders.it;

import io.belfry.reminders.api.Namespace;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ReminderNotFoundException;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.Reminders;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The user guide's example (docs/user-guide.md): a cart counts as abandoned when nothing was added
 * for a while. Every add re-sets the reminder (replacing the previous version, which then never
 * fires); checkout cancels it.
 */
@ApplicationScoped
public class AbandonedCarts {

  private static final String PREFIX = "cart-";

  @Inject Reminders reminders;

  private final List<String> abandoned = new CopyOnWriteArrayList<>();

  private Duration abandonAfter = Duration.ofMinutes(30);

  public void itemAdded(String cartId) {
    reminders.set(
        ReminderRequest.key(PREFIX + cartId)
            .after(abandonAfter)
            .payloadJson("{\"cart\":\"" + cartId + "\"}")
            .build());
  }

  public void checkedOut(String cartId) {
    try {
      reminders.cancel(PREFIX + cartId);
    } catch (ReminderNotFoundException alreadyFired) {
      // The cart was declared abandoned just before checkout: nothing left to cancel.
    }
  }

  void onReminder(@Observes @Namespace(FireRecorder.NAMESPACE) ReminderFired fired) {
    if (fired.getKey().startsWith(PREFIX)) {
      abandoned.add(fired.getKey().substring(PREFIX.length()));
    }
  }

  public List<String> abandoned() {
    return List.copyOf(abandoned);
  }

  /** For tests: a shorter wait than in production. */
  void abandonAfter(Duration duration) {
    this.abandonAfter = duration;
  }
}
