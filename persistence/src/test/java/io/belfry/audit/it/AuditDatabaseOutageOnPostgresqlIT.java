package io.belfry.audit.it;

import static io.belfry.reminders.api.ReminderActivity.Type.FIRED;
import static io.belfry.reminders.api.ReminderActivity.Type.SET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.belfry.audit.AuditQueries;
import io.belfry.audit.AuditRecord;
import io.belfry.audit.AuditWriter;
import io.belfry.reminders.api.Reminders;
import jakarta.inject.Inject;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real database outage: the local PostgreSQL cluster is stopped for a few seconds and started
 * again while reminders fall due every 100 ms. Firing never pauses (each fire is observed within
 * {@link #NEVER_PAUSED} of its due time, far less than the outage), and once PostgreSQL is back the
 * archive holds exactly SET then FIRED for every reminder.
 *
 * <p>Runs only in the {@code postgresql} failsafe execution of this module (the server on
 * PostgreSQL); it stops and starts the machine's cluster with {@code pg_ctlcluster}, as the CI user
 * (root) may, and always starts it again.
 */
@ExtendWith(ArquillianExtension.class)
class AuditDatabaseOutageOnPostgresqlIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final int REMINDERS = 80;
  private static final Duration SPACING = Duration.ofMillis(100);
  private static final Duration OUTAGE = Duration.ofSeconds(4);
  // generous for a loaded 2-core CI box, and still a fraction of the outage
  private static final Duration NEVER_PAUSED = Duration.ofSeconds(2);

  @Deployment
  static WebArchive deployment() {
    return AuditDeployments.application(
        "audit-pg-outage-it", AuditDatabaseOutageOnPostgresqlIT.class, AuditedApplication.class);
  }

  @Inject Reminders reminders;

  @Inject AuditedApplication application;

  @Inject AuditWriter writer;

  @Inject AuditQueries queries;

  @Test
  void postgresqlStoppedAndStarted_firingNeverPauses_oneRecordPerEventAfterwards()
      throws Exception {
    assertTrue(writer.awaitDrained(WAIT), "nothing pending before the outage");
    String prefix = "pg-outage-" + UUID.randomUUID() + "-";
    Set<String> keys = new LinkedHashSet<>();
    for (int i = 0; i < REMINDERS; i++) {
      String key = prefix + i;
      keys.add(key);
      reminders.setAfter(key, Duration.ofMillis(1_000).plus(SPACING.multipliedBy(i)), null);
    }

    Thread.sleep(1_500);
    long writtenAtStop;
    cluster("stop");
    try {
      writtenAtStop = writer.recordsWritten();
      Thread.sleep(OUTAGE.toMillis());
      assertTrue(writer.queueDepth() > 0, "records wait while the database is down");
    } finally {
      cluster("start");
    }

    assertTrue(application.awaitFired(keys, WAIT), "every reminder fired");
    Map<String, Duration> lateness = application.lateness(keys);
    List<String> paused =
        lateness.entrySet().stream()
            .filter(e -> e.getValue().compareTo(NEVER_PAUSED) > 0)
            .map(e -> e.getKey() + " " + e.getValue())
            .toList();
    assertEquals(List.of(), paused, "no fire waited on the database");

    assertTrue(writer.awaitDrained(WAIT), "written after PostgreSQL came back");
    assertTrue(writer.recordsWritten() > writtenAtStop);
    List<String> wrong = new ArrayList<>();
    for (String key : keys) {
      List<AuditRecord> history = queries.history(AuditedApplication.NAMESPACE, key);
      if (!List.of(SET, FIRED).equals(history.stream().map(AuditRecord::type).toList())) {
        wrong.add(key + " " + history);
      }
    }
    assertEquals(List.of(), wrong, "exactly SET then FIRED for every reminder");
  }

  /** Stops or starts the machine's PostgreSQL cluster and waits until it has done so. */
  private static void cluster(String action) throws IOException, InterruptedException {
    String[] versions = new File("/etc/postgresql").list();
    if (versions == null || versions.length != 1) {
      throw new IllegalStateException("expected one PostgreSQL version under /etc/postgresql");
    }
    List<String> command =
        new ArrayList<>(
            List.of("pg_ctlcluster", "--skip-systemctl-redirect", versions[0], "main", action));
    if (action.equals("stop")) {
      command.addAll(List.of("-m", "fast"));
    }
    Process process = new ProcessBuilder(command).inheritIO().start();
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException(command + " failed");
    }
    if (action.equals("start")) {
      Process ready =
          new ProcessBuilder("pg_isready", "-h", "127.0.0.1", "-t", "30").inheritIO().start();
      if (!ready.waitFor(60, TimeUnit.SECONDS) || ready.exitValue() != 0) {
        throw new IllegalStateException("PostgreSQL did not come back");
      }
    }
  }
}
