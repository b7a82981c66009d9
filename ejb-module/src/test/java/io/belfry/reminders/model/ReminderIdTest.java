package io.belfry.reminders.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ReminderIdTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "k",
        "order:42",
        "a/b/c",
        "::",
        ":leading",
        "trailing:",
        "spaces are fine",
        "ünïcödé ✓ 日本語 \uD83D\uDD14",
        "%3A encoded"
      })
  void fromCacheKey_ofCacheKey_returnsSameId(String key) {
    ReminderId id = new ReminderId("billing-app_1.0", key);

    assertThat(ReminderId.fromCacheKey(id.cacheKey())).isEqualTo(id);
  }

  @Test
  void cacheKey_differentSplits_differ() {
    // "a" + "b:c" and "a:b" + "c" would collide under naive concatenation; a namespace has no ':'.
    assertThatThrownBy(() -> new ReminderId("a:b", "c"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new ReminderId("a", "b:c").cacheKey()).isEqualTo("a:b:c");
    assertThat(ReminderId.fromCacheKey("a:b:c")).isEqualTo(new ReminderId("a", "b:c"));
  }

  @Test
  void constructor_maximumLengths_accepted() {
    ReminderId id = new ReminderId("n".repeat(128), "k".repeat(512));

    assertThat(ReminderId.fromCacheKey(id.cacheKey())).isEqualTo(id);
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"a:b", "a b", "a/b", "é", "a\nb"})
  void constructor_invalidNamespace_throws(String namespace) {
    assertThatThrownBy(() -> new ReminderId(namespace, "key"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("namespace");
  }

  @ParameterizedTest
  @ValueSource(strings = {".", "..", "-ns", "_ns", ".hidden"})
  void isValidNamespace_notStartingWithLetterOrDigit_false(String namespace) {
    assertThat(ReminderId.isValidNamespace(namespace)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "0", "shop.orders_v2-eu", "A..b"})
  void isValidNamespace_letterOrDigitFirst_true(String namespace) {
    assertThat(ReminderId.isValidNamespace(namespace)).isTrue();
  }

  @Test
  void constructor_namespaceTooLong_throws() {
    assertThatThrownBy(() -> new ReminderId("n".repeat(129), "key"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(
      strings = {"line\nbreak", "nul\u0000", "tab\t", "del\u007f", "lone\uD83D", "\uDD14x"})
  void constructor_invalidKey_throws(String key) {
    assertThatThrownBy(() -> new ReminderId("ns", key))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key");
  }

  @Test
  void constructor_keyTooLong_throws() {
    assertThatThrownBy(() -> new ReminderId("ns", "k".repeat(513)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void constructor_hostileKey_messageIsEscapedAndBounded() {
    assertThatThrownBy(() -> new ReminderId("ns", "forged\nWARN line" + "x".repeat(1000)))
        .hasMessageNotContaining("\n")
        .hasMessageContaining("\\u000a");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "no-separator", "bad ns:key", ":key", "ns:"})
  void fromCacheKey_invalid_throws(String cacheKey) {
    assertThatThrownBy(() -> ReminderId.fromCacheKey(cacheKey))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void cacheKeyPrefix_namespace_matchesOnlyItsOwnKeys() {
    String prefix = ReminderId.cacheKeyPrefix("a");

    assertThat(new ReminderId("a", "x").cacheKey()).startsWith(prefix);
    assertThat(new ReminderId("ab", "x").cacheKey()).doesNotStartWith(prefix);
    assertThat(new ReminderId("a.b", "x").cacheKey()).doesNotStartWith(prefix);
  }

  @Test
  void cacheKeyPrefix_invalidNamespace_throws() {
    assertThatThrownBy(() -> ReminderId.cacheKeyPrefix("a:"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
