package io.belfry.reminders.virtualtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VirtualTimeSwitchTest {

  @Test
  void off_unlessThePropertyNamesTheApplication() {
    assertThat(VirtualTimeSwitch.enabledFor(null, "cart")).isFalse();
    assertThat(VirtualTimeSwitch.enabledFor("", "cart")).isFalse();
    assertThat(VirtualTimeSwitch.enabledFor("shop", "cart")).isFalse();
    assertThat(VirtualTimeSwitch.enabledFor("cart-v2", "cart"))
        .as("a name, not a prefix")
        .isFalse();
    assertThat(VirtualTimeSwitch.enabledFor("*", "cart")).as("no wildcard").isFalse();
    assertThat(VirtualTimeSwitch.enabledFor("true", "cart")).isFalse();
    assertThat(VirtualTimeSwitch.enabledFor("cart", null)).isFalse();
    assertThat(VirtualTimeSwitch.enabledFor(",", "")).isFalse();
  }

  @Test
  void on_forEveryApplicationNamed() {
    assertThat(VirtualTimeSwitch.enabledFor("cart", "cart")).isTrue();
    assertThat(VirtualTimeSwitch.enabledFor("shop, cart", "cart")).isTrue();
    assertThat(VirtualTimeSwitch.enabledFor("shop, cart", "shop")).isTrue();
  }

  @Test
  void theServersPropertyIsRead_andUnsetMeansOff() {
    String before = System.getProperty(VirtualTimeSwitch.PROPERTY);
    try {
      System.clearProperty(VirtualTimeSwitch.PROPERTY);
      assertThat(VirtualTimeSwitch.enabledFor("cart")).isFalse();
      assertThat(VirtualTimeSwitch.isSet()).isFalse();
      System.setProperty(VirtualTimeSwitch.PROPERTY, " ");
      assertThat(VirtualTimeSwitch.isSet()).isFalse();
      System.setProperty(VirtualTimeSwitch.PROPERTY, "cart");
      assertThat(VirtualTimeSwitch.enabledFor("cart")).isTrue();
      assertThat(VirtualTimeSwitch.isSet()).isTrue();
    } finally {
      if (before == null) {
        System.clearProperty(VirtualTimeSwitch.PROPERTY);
      } else {
        System.setProperty(VirtualTimeSwitch.PROPERTY, before);
      }
    }
  }
}
