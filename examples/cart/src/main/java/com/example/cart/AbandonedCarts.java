package com.example.cart;

import io.belfry.reminders.api.Namespace;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ReminderNotFoundException;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.api.ServesNamespaces;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.Json;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A cart counts as abandoned when nothing was added to it for {@code cart.abandon-after} (30
 * minutes unless configured). Every add sets the cart's reminder again, which replaces the pending
 * version; checkout cancels it.
 */
@ApplicationScoped
@ServesNamespaces(AbandonedCarts.NAMESPACE)
public class AbandonedCarts {

  public static final String NAMESPACE = "cart";

  private static final String PREFIX = "cart-";

  @Inject Reminders reminders;

  @Inject
  @ConfigProperty(name = "cart.abandon-after", defaultValue = "PT30M")
  Duration abandonAfter;

  private final List<AbandonedCart> abandoned = new CopyOnWriteArrayList<>();

  public void itemAdded(String cartId, String item) {
    String payload =
        Json.createObjectBuilder().add("cart", cartId).add("lastItem", item).build().toString();
    reminders.set(
        ReminderRequest.key(PREFIX + cartId).after(abandonAfter).payloadJson(payload).build());
  }

  /** Whether there was a pending reminder to cancel. */
  public boolean checkedOut(String cartId) {
    try {
      reminders.cancel(PREFIX + cartId);
      return true;
    } catch (ReminderNotFoundException alreadyFired) {
      // The cart was declared abandoned just before checkout: nothing left to cancel.
      return false;
    }
  }

  void onReminder(@Observes @Namespace(NAMESPACE) ReminderFired fired) {
    if (fired.getKey().startsWith(PREFIX)) {
      // A real handler sends the e-mail here, de-duplicated by the fence if it must not go twice.
      abandoned.add(
          new AbandonedCart(
              fired.getKey().substring(PREFIX.length()), fired.payloadAsString(), fired.getFence()));
    }
  }

  /** The carts declared abandoned on this node, in the order their reminders fired. */
  public List<AbandonedCart> abandoned() {
    return List.copyOf(abandoned);
  }

  /** One fire of a cart's reminder: the cart, the payload of the version that fired, its fence. */
  public record AbandonedCart(String cart, String payload, long fence) {}
}
