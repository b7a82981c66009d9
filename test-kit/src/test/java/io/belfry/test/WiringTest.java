package io.belfry.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.Namespace;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.api.ServesNamespaces;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The extension, the door's rules on virtual time, and beans wired as CDI would wire them. */
@ExtendWith(BelfryExtension.class)
class WiringTest {

  @ServesNamespaces({"shop", "other"})
  static class Shop {
    @Inject Reminders reminders;
    final List<String> shopFires = new ArrayList<>();
    final List<String> allFires = new ArrayList<>();
    final List<String> asyncFires = new ArrayList<>();

    void remind(String key) {
      reminders.set(ReminderRequest.key(key).after(Duration.ofMinutes(30)).build());
    }

    void onShop(@Observes @Namespace("shop") ReminderFired fired) {
      shopFires.add(fired.getKey());
    }

    private void onAny(@Observes ReminderFired fired) {
      allFires.add(fired.getNamespace() + ":" + fired.getKey());
    }

    void onAsync(@ObservesAsync @Namespace("shop") ReminderFired fired) {
      asyncFires.add(fired.getKey());
      throw new IllegalStateException("an asynchronous observer cannot fail the delivery");
    }
  }

  private VirtualBelfry before;

  @BeforeEach
  void setUp(VirtualBelfry belfry) {
    before = belfry;
  }

  @Test
  void beforeEachAndTest_getTheSameFreshInstance_atTheDefaultStart(VirtualBelfry belfry) {
    assertThat(belfry).isSameAs(before);
    assertThat(belfry.now()).isEqualTo(VirtualBelfry.DEFAULT_START);
    assertThat(belfry.nextDue()).isEmpty();
  }

  @Test
  void inject_setsRemindersOfTheFirstServedNamespace_andRegistersObservers(VirtualBelfry belfry) {
    Shop shop = belfry.inject(new Shop());
    shop.remind("cart-1");
    belfry.reminders("elsewhere").setAfter("x", Duration.ofMinutes(1), null);

    belfry.advanceBy(Duration.ofHours(1));

    assertThat(belfry.fires().single("cart-1").getNamespace()).isEqualTo("shop");
    assertThat(shop.shopFires).containsExactly("cart-1");
    assertThat(shop.asyncFires).containsExactly("cart-1");
    assertThat(shop.allFires).containsExactly("elsewhere:x", "shop:cart-1");
    assertThat(belfry.fires().failures()).hasSize(1);
    assertThat(belfry.reminders("shop").get("cart-1")).isEmpty();
  }

  @Test
  void invalidRequest_refusedAtTheDoor_asInProduction(VirtualBelfry belfry) {
    Reminders reminders = belfry.reminders();

    assertThatThrownBy(
            () ->
                reminders.set(
                    ReminderRequest.key("k").after(Duration.ofMinutes(1)).every("10ms").build()))
        .isInstanceOf(InvalidReminderException.class)
        .hasMessageContaining("every");
    assertThatThrownBy(
            () ->
                reminders.set(
                    ReminderRequest.key("k")
                        .at(belfry.now().plus(Duration.ofDays(365 * 101)))
                        .build()))
        .as("100 years from virtual now, not from the machine's clock")
        .isInstanceOf(InvalidReminderException.class);
    assertThat(belfry.nextDue()).isEmpty();
  }

  @Test
  void preview_andAfter_readVirtualNow(VirtualBelfry belfry) {
    belfry.advanceTo(Instant.parse("2030-06-01T00:00:00Z"));

    assertThat(
            belfry
                .reminders()
                .preview(
                    ReminderRequest.key("k").after(Duration.ofHours(1)).every("1h").build(), 2))
        .containsExactly(
            Instant.parse("2030-06-01T01:00:00Z"), Instant.parse("2030-06-01T02:00:00Z"));
  }
}
