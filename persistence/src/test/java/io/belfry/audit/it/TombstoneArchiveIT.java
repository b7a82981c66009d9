package io.belfry.audit.it;

import static io.belfry.reminders.api.ReminderActivity.Type.CANCELLED;
import static io.belfry.reminders.api.ReminderActivity.Type.SET;
import static io.belfry.reminders.api.ReminderActivity.Type.TOMBSTONE_PURGED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.belfry.audit.AuditDatabase;
import io.belfry.audit.AuditQueries;
import io.belfry.audit.AuditRecord;
import io.belfry.audit.AuditWriter;
import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.cdi.EngineRuntime;
import io.belfry.reminders.model.ReminderId;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.as.arquillian.api.ServerSetup;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tombstones are archived before the sweep drops them, and kept while the archive cannot take them.
 * The server runs this deployment with a one-second tombstone TTL ({@link ShortTombstoneTtl}); the
 * test sweeps by hand instead of waiting for the sweep's window.
 */
@ExtendWith(ArquillianExtension.class)
@ServerSetup(ShortTombstoneTtl.class)
class TombstoneArchiveIT {

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Duration PAST_TTL = Duration.parse(ShortTombstoneTtl.TTL).plusMillis(200);

  @Deployment
  static WebArchive deployment() {
    return AuditDeployments.application(
        "tombstone-archive-it",
        TombstoneArchiveIT.class,
        ShortTombstoneTtl.class,
        AuditedApplication.class);
  }

  @Inject Reminders reminders;

  @Inject EngineRuntime runtime;

  @Inject AuditWriter writer;

  @Inject AuditQueries queries;

  @Resource(lookup = AuditDatabase.DATASOURCE)
  DataSource dataSource;

  @Test
  void expiredTombstone_archivedThenRemoved() throws Exception {
    String key = "tombstone-" + UUID.randomUUID();
    reminders.setAfter(key, Duration.ofHours(1), null);
    reminders.cancel(key);
    Thread.sleep(PAST_TTL.toMillis());

    runtime.engine().sweep();

    assertTrue(awaitRemoved(key), "the tombstone is removed once archived");
    assertTrue(writer.awaitDrained(WAIT));
    List<AuditRecord> history = queries.history(AuditedApplication.NAMESPACE, key);
    assertEquals(List.of(SET, CANCELLED, TOMBSTONE_PURGED), types(history), history.toString());
    assertEquals(history.get(1).version(), history.get(2).version(), "the cancelled version");
  }

  @Test
  void archiveDown_tombstoneKept_archivedAndRemovedWhenBack() throws Exception {
    String key = "tombstone-kept-" + UUID.randomUUID();
    reminders.setAfter(key, Duration.ofHours(1), null);
    reminders.cancel(key);
    assertTrue(writer.awaitDrained(WAIT));

    // the table goes away before the tombstone outlives its TTL: the server's own sweep may run
    // at any moment after that, and a CI run saw it archive the tombstone before the rename
    rename("belfry_audit", "belfry_audit_away");
    try {
      Thread.sleep(PAST_TTL.toMillis());
      runtime.engine().sweep();
      Thread.sleep(1_000);
      assertTrue(stored(key), "not archived, so not removed");
    } finally {
      rename("belfry_audit_away", "belfry_audit");
    }

    runtime.engine().sweep();
    assertTrue(awaitRemoved(key), "archived and removed once the table is back");
    List<AuditRecord> history = queries.history(AuditedApplication.NAMESPACE, key);
    assertEquals(List.of(SET, CANCELLED, TOMBSTONE_PURGED), types(history), history.toString());
  }

  private boolean stored(String key) {
    return runtime.engine().get(ReminderId.of(AuditedApplication.NAMESPACE, key)).isPresent();
  }

  private boolean awaitRemoved(String key) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (stored(key)) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(50);
      // the automatic sweep may be running a purge already; asking again is harmless
      runtime.engine().sweep();
    }
    return true;
  }

  private void rename(String from, String to) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("ALTER TABLE " + from + " RENAME TO " + to);
    }
  }

  private static List<ReminderActivity.Type> types(List<AuditRecord> records) {
    return records.stream().map(AuditRecord::type).toList();
  }
}
