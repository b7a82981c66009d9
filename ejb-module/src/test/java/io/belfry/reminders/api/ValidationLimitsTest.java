package io.belfry.reminders.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ValidationLimitsTest {

  @AfterEach
  void clearLimits() {
    System.clearProperty(ValidationLimits.MIN_INTERVAL_PROPERTY);
    System.clearProperty(ValidationLimits.MAX_PAYLOAD_BYTES_PROPERTY);
  }

  @Test
  void limits_noProperties_areDefaults() {
    assertThat(ValidationLimits.minInterval()).isEqualTo(Duration.ofMillis(100));
    assertThat(ValidationLimits.maxPayloadBytes()).isEqualTo(65_536);
  }

  @Test
  void limits_propertiesSet_areRead() {
    System.setProperty(ValidationLimits.MIN_INTERVAL_PROPERTY, "2s");
    System.setProperty(ValidationLimits.MAX_PAYLOAD_BYTES_PROPERTY, "1024");
    assertThat(ValidationLimits.minInterval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(ValidationLimits.maxPayloadBytes()).isEqualTo(1024);
  }

  @Test
  void limits_unparseableProperties_failNamingTheProperty() {
    System.setProperty(ValidationLimits.MIN_INTERVAL_PROPERTY, "soon");
    System.setProperty(ValidationLimits.MAX_PAYLOAD_BYTES_PROPERTY, "-1");
    assertThatThrownBy(ValidationLimits::minInterval)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("belfry.min-interval");
    assertThatThrownBy(ValidationLimits::maxPayloadBytes)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("belfry.payload-max-bytes");
  }
}
