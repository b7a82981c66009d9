package io.belfry.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FailedLoginsTest {

  private final AtomicLong nanos = new AtomicLong();
  private final Ticker ticker = nanos::get;
  private final FailedLogins failures = new FailedLogins(3, Duration.ofMinutes(15), ticker);

  private void wait(Duration duration) {
    nanos.addAndGet(duration.toNanos());
  }

  @Test
  void maxFailuresWithinTheInterval_blockTheAddress_andNoOther() {
    assertThat(failures.failed("10.0.0.1")).isFalse();
    assertThat(failures.failed("10.0.0.1")).isFalse();
    assertThat(failures.isBlocked("10.0.0.1")).isFalse();
    assertThat(failures.failed("10.0.0.1")).as("the third blocks").isTrue();
    assertThat(failures.isBlocked("10.0.0.1")).isTrue();
    assertThat(failures.isBlocked("10.0.0.2")).isFalse();
    assertThat(failures.retryAfter("10.0.0.1")).contains(Duration.ofMinutes(15));
    assertThat(failures.failed("10.0.0.1")).as("blocked already: said once").isFalse();
  }

  @Test
  void theLockoutRunsFromTheBlockingFailure_thenTheAddressIsFree() {
    failures.failed("10.0.0.1");
    wait(Duration.ofMinutes(10));
    failures.failed("10.0.0.1");
    failures.failed("10.0.0.1");
    wait(Duration.ofMinutes(14));
    assertThat(failures.isBlocked("10.0.0.1")).isTrue();
    assertThat(failures.retryAfter("10.0.0.1")).contains(Duration.ofMinutes(1));
    wait(Duration.ofMinutes(1).plusNanos(1));
    assertThat(failures.isBlocked("10.0.0.1")).isFalse();
    assertThat(failures.failed("10.0.0.1")).as("counting starts again").isFalse();
  }

  @Test
  void failuresFurtherApartThanTheInterval_neverBlock() {
    for (int i = 0; i < 10; i++) {
      failures.failed("10.0.0.1");
      failures.failed("10.0.0.1");
      wait(Duration.ofMinutes(15).plusNanos(1));
    }
    assertThat(failures.isBlocked("10.0.0.1")).isFalse();
  }

  @Test
  void ipv6_countedPerSlash64_ipv4PerAddress() {
    assertThat(FailedLogins.keyOf("2001:db8:1:2:aaaa::1"))
        .isEqualTo(FailedLogins.keyOf("2001:db8:1:2:bbbb::2"))
        .isNotEqualTo(FailedLogins.keyOf("2001:db8:1:3::1"));
    assertThat(FailedLogins.keyOf("10.0.0.1")).isEqualTo("10.0.0.1");
    assertThat(FailedLogins.keyOf("unresolved-name")).isEqualTo("unresolved-name");
  }

  @Test
  void settingsOutOfRange_refused() {
    assertThatThrownBy(() -> new FailedLogins(0, Duration.ofMinutes(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new FailedLogins(5, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
