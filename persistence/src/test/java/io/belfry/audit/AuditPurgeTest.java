package io.belfry.audit;

import static io.belfry.audit.AuditTestDatabase.activity;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.ReminderActivity.Type;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Retention: only what is older than the horizon goes, in batches. */
class AuditPurgeTest {

  private static final Instant HORIZON = Instant.parse("2026-10-22T00:00:00Z");

  @Test
  void purgeOlderThan_2500OldAnd3Young_deletesOnlyTheOld() throws SQLException {
    try (AuditTestDatabase database = new AuditTestDatabase("purge")) {
      List<PendingAudit> records = new ArrayList<>();
      for (int i = 0; i < 2500; i++) {
        records.add(record("old" + i, HORIZON.minus(Duration.ofMinutes(i + 1))));
      }
      records.add(record("at-horizon", HORIZON));
      records.add(record("young1", HORIZON.plusSeconds(1)));
      records.add(record("young2", HORIZON.plus(Duration.ofDays(29))));
      new AuditRows(database.dataSource).insert(records);

      long purged = new AuditPurge(database.dataSource, 1000).purgeOlderThan(HORIZON);

      assertThat(purged).isEqualTo(2500);
      assertThat(database.count("TRUE")).isEqualTo(3);
      assertThat(database.count("reminder_key LIKE 'old%'")).isZero();
    }
  }

  private static PendingAudit record(String key, Instant at) {
    return new PendingAudit(key, activity(Type.FIRED, key, at), at);
  }
}
