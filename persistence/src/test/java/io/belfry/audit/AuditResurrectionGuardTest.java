package io.belfry.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.api.ReminderActivity.Type;
import io.belfry.reminders.fire.ResurrectionGuard.Candidate;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** The guard's verdicts on a migrated H2 archive: what ends a version, and what does not. */
class AuditResurrectionGuardTest {

  private static final Instant AT = Instant.parse("2026-11-20T09:00:00Z");

  @Test
  void outlived_judgesEachCandidateByTheRowsOfItsKey() throws SQLException {
    try (AuditTestDatabase database = new AuditTestDatabase("guard")) {
      insert(
          database,
          row(Type.SET, "ns", "fired", 10),
          row(Type.FIRED, "ns", "fired", 10),
          row(Type.SET, "ns", "cancelled", 20),
          row(Type.CANCELLED, "ns", "cancelled", 20),
          row(Type.SET, "ns", "replaced", 30),
          row(Type.REPLACED, "ns", "replaced", 31),
          row(Type.SKIPPED, "ns", "skipped", 40),
          row(Type.TOMBSTONE_PURGED, "ns", "purged", 50),
          row(Type.SET, "ns", "live", 60),
          row(Type.FIRED, "ns", "recurring", 70),
          row(Type.FIRED, "other", "fired", 10),
          // at least once: every step is recorded under the fence
          row(Type.DELIVERING, "ns", "delivered", 90),
          row(Type.DELIVERED, "ns", "delivered", 90),
          row(Type.DELIVERING, "ns", "interrupted", 91),
          row(Type.RETRY_SCHEDULED, "ns", "retrying", 92),
          row(Type.DEAD_LETTERED, "ns", "dead", 93));

      Map<ReminderId, ReminderState> outlived =
          new AuditResurrectionGuard(database.dataSource)
              .outlived(
                  List.of(
                      candidate("ns", "fired", 10),
                      candidate("ns", "cancelled", 20),
                      candidate("ns", "replaced", 30),
                      candidate("ns", "skipped", 40),
                      candidate("ns", "purged", 50),
                      candidate("ns", "live", 60),
                      // the successor of an occurrence that fired: a newer version, live
                      candidate("ns", "recurring", 71),
                      candidate("ns", "unknown", 80),
                      candidate("third", "fired", 10),
                      candidate("ns", "delivered", 90),
                      // owed another attempt: a resurrected copy may give it
                      candidate("ns", "interrupted", 91),
                      candidate("ns", "retrying", 92),
                      candidate("ns", "dead", 93)));

      assertThat(outlived)
          .containsOnly(
              Map.entry(ReminderId.of("ns", "fired"), ReminderState.FIRED),
              Map.entry(ReminderId.of("ns", "cancelled"), ReminderState.CANCELLED),
              Map.entry(ReminderId.of("ns", "replaced"), ReminderState.CANCELLED),
              Map.entry(ReminderId.of("ns", "skipped"), ReminderState.SKIPPED),
              Map.entry(ReminderId.of("ns", "purged"), ReminderState.CANCELLED),
              Map.entry(ReminderId.of("ns", "delivered"), ReminderState.FIRED));
    }
  }

  @Test
  void outlived_ownFireAndANewerEnd_theEndWinsSoThatARecurringSeriesIsNotRevived()
      throws SQLException {
    try (AuditTestDatabase database = new AuditTestDatabase("guard-newer-end")) {
      insert(
          database,
          // a recurring series that went on after the candidate's occurrence fired
          row(Type.FIRED, "ns", "went-on", 10),
          row(Type.FIRED, "ns", "went-on", 11),
          row(Type.SKIPPED, "ns", "went-on", 12),
          // one cancelled after it, one parked as a dead letter, one replaced by a new set
          row(Type.FIRED, "ns", "cancelled-later", 20),
          row(Type.FIRED, "ns", "cancelled-later", 21),
          row(Type.CANCELLED, "ns", "cancelled-later", 22),
          row(Type.FIRED, "ns", "parked-later", 30),
          row(Type.DELIVERING, "ns", "parked-later", 31),
          row(Type.DEAD_LETTERED, "ns", "parked-later", 31),
          row(Type.FIRED, "ns", "set-again", 40),
          row(Type.SET, "ns", "set-again", 45),
          row(Type.FIRED, "ns", "set-again", 45));

      Map<ReminderId, ReminderState> outlived =
          new AuditResurrectionGuard(database.dataSource)
              .outlived(
                  List.of(
                      candidate("ns", "went-on", 10),
                      candidate("ns", "cancelled-later", 20),
                      candidate("ns", "parked-later", 30),
                      candidate("ns", "set-again", 40)));

      assertThat(outlived)
          .containsOnly(
              Map.entry(ReminderId.of("ns", "went-on"), ReminderState.FIRED),
              Map.entry(ReminderId.of("ns", "cancelled-later"), ReminderState.CANCELLED),
              Map.entry(ReminderId.of("ns", "parked-later"), ReminderState.CANCELLED),
              Map.entry(ReminderId.of("ns", "set-again"), ReminderState.CANCELLED));
    }
  }

  @Test
  void outlived_moreCandidatesThanOneQueryTakes_judgesThemAll() throws SQLException {
    try (AuditTestDatabase database = new AuditTestDatabase("guard-chunks")) {
      int count = AuditResurrectionGuard.CHUNK * 2 + 17;
      List<PendingAudit> rows = new ArrayList<>();
      List<Candidate> candidates = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        if (i % 2 == 0) {
          rows.add(row(Type.FIRED, "ns", "k" + i, 5));
        }
        candidates.add(candidate("ns", "k" + i, 5));
      }
      new AuditRows(database.dataSource).insert(rows);

      Map<ReminderId, ReminderState> outlived =
          new AuditResurrectionGuard(database.dataSource).outlived(candidates);

      assertThat(outlived).hasSize((count + 1) / 2).containsKey(ReminderId.of("ns", "k0"));
      assertThat(outlived).doesNotContainKey(ReminderId.of("ns", "k1"));
    }
  }

  /**
   * The plan, not a time: each key is a lookup on the reminder index. The query this replaced, an
   * IN list of parameters, read every row of the namespace on H2 (which looks up IN lists only on
   * an index's first column).
   */
  @Test
  void rowsOfKeys_looksUpEachKeyOnTheReminderIndex() throws SQLException {
    try (AuditTestDatabase database = new AuditTestDatabase("guard-plan");
        Connection connection = database.dataSource.getConnection();
        PreparedStatement explain =
            connection.prepareStatement("EXPLAIN " + AuditResurrectionGuard.ROWS_OF_KEYS)) {
      explain.setArray(1, connection.createArrayOf("VARCHAR", new Object[] {"a", "b"}));
      explain.setString(2, "ns");
      explain.setLong(3, 0);
      try (ResultSet plan = explain.executeQuery()) {
        assertThat(plan.next()).isTrue();
        assertThat(plan.getString(1).replaceAll("\\s+", " "))
            .contains("BELFRY_AUDIT_REMINDER_IX: NAMESPACE = ?2 AND REMINDER_KEY = K.REMINDER_KEY");
      }
    }
  }

  @Test
  void outlived_databaseUnreachable_throwsSoThatTheSchedulerFiresUnchecked() {
    JdbcDataSource nowhere = new JdbcDataSource();
    nowhere.setURL("jdbc:h2:mem:never-migrated;IFEXISTS=TRUE");

    assertThatThrownBy(
            () -> new AuditResurrectionGuard(nowhere).outlived(List.of(candidate("ns", "k", 1))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("audit archive cannot be read");
  }

  private static void insert(AuditTestDatabase database, PendingAudit... rows) throws SQLException {
    new AuditRows(database.dataSource).insert(List.of(rows));
  }

  private static PendingAudit row(Type type, String namespace, String key, long version) {
    return new PendingAudit(
        type + "-" + namespace + "-" + key + "-" + version,
        new ReminderActivity(type, namespace, key, version, 1, AT, AT, "node1", null),
        AT);
  }

  private static Candidate candidate(String namespace, String key, long version) {
    return new Candidate(ReminderId.of(namespace, key), version);
  }
}
