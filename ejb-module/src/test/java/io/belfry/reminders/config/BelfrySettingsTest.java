package io.belfry.reminders.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.fire.EngineSettings;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BelfrySettingsTest {

  @AfterEach
  void clear() {
    System.clearProperty(BelfrySettings.SCAN_INTERVAL);
    System.clearProperty(BelfrySettings.TOMBSTONE_TTL);
    System.clearProperty(BelfrySettings.BACKFILL_RATE);
    System.clearProperty(BelfrySettings.BACKLOG_LATENESS);
    System.clearProperty(BelfrySettings.STANDBY_HINTS);
  }

  @Test
  void fromSystemProperties_nothingSet_returnsDefaults() {
    assertThat(BelfrySettings.fromSystemProperties()).isEqualTo(EngineSettings.DEFAULTS);
  }

  @Test
  void fromSystemProperties_shortAndIsoForms_areBothRead() {
    System.setProperty(BelfrySettings.SCAN_INTERVAL, "500ms");
    System.setProperty(BelfrySettings.TOMBSTONE_TTL, "PT2H");
    System.setProperty(BelfrySettings.BACKFILL_RATE, "250");
    System.setProperty(BelfrySettings.BACKLOG_LATENESS, "0");

    EngineSettings settings = BelfrySettings.fromSystemProperties();

    assertThat(settings.scanInterval()).isEqualTo(Duration.ofMillis(500));
    assertThat(settings.tombstoneTtl()).isEqualTo(Duration.ofHours(2));
    assertThat(settings.backfillRatePerSecond()).isEqualTo(250);
    assertThat(settings.backlogLateness()).isZero();
  }

  @Test
  void fromSystemProperties_malformedValue_namesTheProperty() {
    System.setProperty(BelfrySettings.BACKFILL_RATE, "fast");

    assertThatThrownBy(BelfrySettings::fromSystemProperties)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("belfry.backfill-rate");
  }

  @Test
  void fromSystemProperties_standbyHints_trueOrFalseOnly() {
    assertThat(BelfrySettings.fromSystemProperties().standbyHints()).as("default").isTrue();
    System.setProperty(BelfrySettings.STANDBY_HINTS, "FALSE");
    assertThat(BelfrySettings.fromSystemProperties().standbyHints()).isFalse();

    System.setProperty(BelfrySettings.STANDBY_HINTS, "no");
    assertThatThrownBy(BelfrySettings::fromSystemProperties)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("belfry.standby-hints");
  }
}
