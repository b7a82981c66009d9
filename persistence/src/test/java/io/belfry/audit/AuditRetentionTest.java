package io.belfry.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The retention setting: an ISO-8601 duration, 30 days unless configured sensibly. */
class AuditRetentionTest {

  @AfterEach
  void clear() {
    System.clearProperty(AuditRetention.RETENTION_PROPERTY);
  }

  @Test
  void retention_unset_is30Days() {
    assertThat(AuditRetention.retention()).isEqualTo(Duration.ofDays(30));
  }

  @Test
  void retention_P7D_is7Days() {
    System.setProperty(AuditRetention.RETENTION_PROPERTY, "P7D");

    assertThat(AuditRetention.retention()).isEqualTo(Duration.ofDays(7));
  }

  @Test
  void retention_notADuration_fallsBackTo30Days() {
    System.setProperty(AuditRetention.RETENTION_PROPERTY, "30 days");

    assertThat(AuditRetention.retention()).isEqualTo(Duration.ofDays(30));
  }

  @Test
  void retention_negative_fallsBackTo30Days() {
    System.setProperty(AuditRetention.RETENTION_PROPERTY, "-PT1H");

    assertThat(AuditRetention.retention()).isEqualTo(Duration.ofDays(30));
  }
}
