package io.belfry.audit.it;

import static io.belfry.reminders.api.ReminderActivity.Type.CANCELLED;
import static io.belfry.reminders.api.ReminderActivity.Type.FIRED;
import static io.belfry.reminders.api.ReminderActivity.Type.REPLACED;
import static io.belfry.reminders.api.ReminderActivity.Type.SET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.belfry.audit.AuditDatabase;
import io.belfry.audit.AuditPage;
import io.belfry.audit.AuditQueries;
import io.belfry.audit.AuditQuery;
import io.belfry.audit.AuditRecord;
import io.belfry.audit.AuditRetention;
import io.belfry.audit.AuditRows;
import io.belfry.audit.AuditWriter;
import io.belfry.audit.PendingAudit;
import io.belfry.reminders.api.Reminder;
import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.api.Reminders;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The audit on the provisioned server's BelfryDS (H2 by default): Flyway migrates at deployment,
 * every engine event becomes exactly one record, and a reminder's history reads in order.
 */
@ExtendWith(ArquillianExtension.class)
class AuditIT {

  private static final Duration WAIT = Duration.ofSeconds(20);

  @Deployment
  static WebArchive deployment() {
    return AuditDeployments.application("audit-it", AuditIT.class, AuditedApplication.class);
  }

  @Inject Reminders reminders;

  @Inject AuditWriter writer;

  @Inject AuditQueries queries;

  @Inject AuditRetention retention;

  @Resource(lookup = AuditDatabase.DATASOURCE)
  DataSource dataSource;

  @Test
  void setReplaceCancel_eachEventOneRecord_historyInOrder() throws Exception {
    String key = unique("changed");
    Reminder first = reminders.setAfter(key, Duration.ofHours(1), bytes("v1"));
    Reminder second = reminders.setAfter(key, Duration.ofHours(2), bytes("v2"));
    reminders.cancel(key);

    List<AuditRecord> history = awaitHistory(key, 3);

    assertEquals(List.of(SET, REPLACED, CANCELLED), types(history));
    assertEquals(first.version(), history.get(0).version());
    assertEquals(second.version(), history.get(1).version());
    assertTrue(history.stream().allMatch(r -> "it-node".equals(r.node())), "node recorded");
    assertTrue(history.stream().allMatch(r -> r.latenessMillis() == null), "no lateness");
    assertEquals(3, history.stream().map(AuditRecord::activityId).distinct().count());
  }

  @Test
  void oneShot_fires_historyIsSetThenFiredWithLateness() throws Exception {
    String key = unique("fired");
    Reminder set = reminders.setAfter(key, Duration.ofMillis(200), bytes("x"));

    List<AuditRecord> history = awaitHistory(key, 2);

    assertEquals(List.of(SET, FIRED), types(history));
    AuditRecord fired = history.get(1);
    assertEquals(set.version(), fired.version(), "the fence");
    assertEquals(1, fired.occurrence());
    assertNotNull(fired.latenessMillis());
    assertTrue(fired.latenessMillis() >= 0, "never early: " + fired.latenessMillis());
    assertEquals(
        Duration.between(fired.dueAt(), fired.eventAt()).toMillis(), fired.latenessMillis());
  }

  @Test
  void list_byNamespaceKeyAndType_pagesNewestFirstWithCursor() throws Exception {
    String key = unique("paged");
    for (int version = 1; version <= 3; version++) {
      reminders.setAfter(key, Duration.ofHours(version), bytes("v" + version));
    }
    reminders.cancel(key);
    awaitHistory(key, 4);
    AuditQuery query =
        AuditQuery.all().withNamespace(AuditedApplication.NAMESPACE).withKey(key).withLimit(2);

    AuditPage firstPage = queries.list(query);
    AuditPage secondPage = queries.list(query.withCursor(firstPage.next()));

    assertEquals(List.of(CANCELLED, REPLACED), types(firstPage.records()));
    assertTrue(firstPage.hasNext());
    assertEquals(List.of(REPLACED, SET), types(secondPage.records()));
    assertFalse(secondPage.hasNext());
    assertNull(secondPage.next());
    AuditPage replaced = queries.list(query.withType(REPLACED).withLimit(10));
    assertEquals(2, replaced.records().size());
    AuditPage none =
        queries.list(query.between(Instant.EPOCH, Instant.EPOCH.plusSeconds(1)).withLimit(10));
    assertTrue(none.records().isEmpty(), "time range filters");
  }

  @Test
  void metrics_afterDrain_nothingWaits() throws Exception {
    String key = unique("metrics");
    long before = writer.recordsWritten();
    reminders.setAfter(key, Duration.ofHours(1), null);
    reminders.cancel(key);

    awaitHistory(key, 2);

    assertTrue(writer.awaitDrained(WAIT));
    assertEquals(0, writer.queueDepth());
    assertEquals(Duration.ZERO, writer.writeLag());
    assertTrue(writer.recordsWritten() >= before + 2);
    assertFalse(writer.hasSpilledRecords());
  }

  @Test
  void retentionPurge_keepsWhatIsYoungerThanTheHorizon() throws Exception {
    String key = unique("retained");
    Instant now = Instant.now();
    Instant horizon = now.minus(AuditRetention.DEFAULT_RETENTION);
    new AuditRows(dataSource)
        .insert(
            List.of(
                archived(key, "old", horizon.minus(Duration.ofDays(1))),
                archived(key, "older", horizon.minus(Duration.ofDays(300))),
                archived(key, "young", horizon.plus(Duration.ofHours(1))),
                archived(key, "new", now)));

    long purged = retention.purge();

    assertTrue(purged >= 2, "purged " + purged);
    assertEquals(
        List.of("young", "new"),
        queries.history(AuditedApplication.NAMESPACE, key).stream()
            .map(AuditRecord::detail)
            .toList());
  }

  private static PendingAudit archived(String key, String label, Instant at) {
    return new PendingAudit(
        UUID.randomUUID().toString(),
        new ReminderActivity(
            SET, AuditedApplication.NAMESPACE, key, 1, 0, null, at, "it-node", label),
        at);
  }

  /**
   * Waits until {@code key}'s history has at least {@code count} records, re-reading it each time
   * the writer reports a write; then checks that no further record arrives for it.
   */
  private List<AuditRecord> awaitHistory(String key, int count) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      long written = writer.recordsWritten();
      List<AuditRecord> history = queries.history(AuditedApplication.NAMESPACE, key);
      if (history.size() >= count) {
        assertTrue(writer.awaitDrained(WAIT), "writer drained");
        List<AuditRecord> settled = queries.history(AuditedApplication.NAMESPACE, key);
        assertEquals(count, settled.size(), "exactly one record per event: " + settled);
        return settled;
      }
      Duration left = Duration.ofNanos(deadline - System.nanoTime());
      if (left.isNegative() || !writer.awaitWrittenMoreThan(written, left)) {
        throw new AssertionError("history of " + key + " after " + WAIT + ": " + history);
      }
    }
  }

  private static List<ReminderActivity.Type> types(List<AuditRecord> records) {
    return records.stream().map(AuditRecord::type).toList();
  }

  private static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
