package com.example.cart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.belfry.test.BelfryExtension;
import io.belfry.test.VirtualBelfry;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** AbandonedCarts on Belfry's own engine and virtual time: half an hour passes in no time. */
@ExtendWith(BelfryExtension.class)
class AbandonedCartsTest {

  AbandonedCarts carts;

  @BeforeEach
  void deploy(VirtualBelfry belfry) {
    // what CDI does on the server: inject Reminders, register the @Observes method
    carts = belfry.inject(new AbandonedCarts());
    carts.abandonAfter = Duration.ofMinutes(30);
  }

  @Test
  void abandonedCart_getsOneReminder_withItsLastItem(VirtualBelfry belfry) {
    carts.itemAdded("42", "book");
    belfry.advanceBy(Duration.ofMinutes(10));
    carts.itemAdded("42", "pen"); // resets the 30 minutes

    belfry.advanceBy(Duration.ofMinutes(29));
    assertTrue(carts.abandoned().isEmpty(), "not abandoned yet");

    belfry.advanceBy(Duration.ofHours(5));
    assertEquals(1, carts.abandoned().size());
    assertEquals("42", carts.abandoned().get(0).cart());
    assertTrue(carts.abandoned().get(0).payload().contains("\"lastItem\":\"pen\""));
    assertEquals(belfry.fires().single("cart-42").getFence(), carts.abandoned().get(0).fence());
    belfry.fires().assertNoneEarly();
  }

  @Test
  void checkedOutCart_getsNone(VirtualBelfry belfry) {
    carts.itemAdded("7", "mug");
    belfry.advanceBy(Duration.ofMinutes(20));
    assertTrue(carts.checkedOut("7"));

    belfry.advanceBy(Duration.ofDays(1));

    assertTrue(carts.abandoned().isEmpty());
    belfry.fires().assertNotFired("cart-7");
  }
}
