package io.belfry.audit.it;

import static io.belfry.reminders.api.ReminderActivity.Type.FIRED;
import static io.belfry.reminders.api.ReminderActivity.Type.SET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.belfry.audit.AuditDatabase;
import io.belfry.audit.AuditQueries;
import io.belfry.audit.AuditRecord;
import io.belfry.audit.AuditWriter;
import io.belfry.reminders.api.Reminders;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The audit table unwritable for a while (renamed away: every insert fails, as in an outage seen
 * from the writer) while reminders keep firing: firing never waits on it, and once the table is
 * back the archive holds exactly one record per event. A real connection outage is covered by
 * AuditPipelineTest on H2.
 */
@ExtendWith(ArquillianExtension.class)
class AuditOutageIT {

  private static final Duration WAIT = Duration.ofSeconds(40);
  private static final int REMINDERS = 20;

  @Deployment
  static WebArchive deployment() {
    return AuditDeployments.application(
        "audit-outage-it", AuditOutageIT.class, AuditedApplication.class);
  }

  @Inject Reminders reminders;

  @Inject AuditedApplication application;

  @Inject AuditWriter writer;

  @Inject AuditQueries queries;

  @Resource(lookup = AuditDatabase.DATASOURCE)
  DataSource dataSource;

  @Test
  void tableUnwritable_firesContinue_afterRecoveryOneRecordPerEvent() throws Exception {
    String prefix = "outage-" + UUID.randomUUID() + "-";
    Set<String> keys = new LinkedHashSet<>();
    assertTrue(writer.awaitDrained(WAIT), "nothing pending before the outage");
    long writtenBefore = writer.recordsWritten();
    rename("belfry_audit", "belfry_audit_away");
    try {
      for (int i = 0; i < REMINDERS; i++) {
        String key = prefix + i;
        keys.add(key);
        // a steady stream: one due every 50 ms
        reminders.setAfter(key, Duration.ofMillis(200 + 50L * i), null);
      }

      assertTrue(application.awaitFired(keys, WAIT), "every reminder fired during the outage");
      assertEquals(writtenBefore, writer.recordsWritten(), "nothing could be written");
      // every SET waits; a FIRED is announced just after the observers return, so the last one
      // may not be queued yet
      assertTrue(writer.queueDepth() >= REMINDERS, "the records wait: " + writer.queueDepth());
    } finally {
      rename("belfry_audit_away", "belfry_audit");
    }

    assertTrue(writer.awaitDrained(WAIT), "written after recovery");
    List<String> missing = new ArrayList<>();
    for (String key : keys) {
      List<AuditRecord> history = queries.history(AuditedApplication.NAMESPACE, key);
      if (!List.of(SET, FIRED).equals(history.stream().map(AuditRecord::type).toList())) {
        missing.add(key + " " + history);
      }
    }
    assertEquals(List.of(), missing, "exactly SET then FIRED for every reminder");
  }

  private void rename(String from, String to) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("ALTER TABLE " + from + " RENAME TO " + to);
    }
  }
}
