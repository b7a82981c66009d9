package io.belfry.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.ReminderActivity.Type;
import io.belfry.schema.LocalPostgres;
import io.belfry.schema.VersionedSchema;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The audit schema's version 2 ({@link AuditIdCache}): on H2 the identity of {@code id} caches a
 * block of values, so that the audit writer no longer forces a store of the whole database every 32
 * rows; a database written by the earlier schema keeps its rows and gets the change at its next
 * start; PostgreSQL's sequence is left as it was.
 */
class AuditIdCacheTest {

  @Test
  void h2WrittenByVersion1_migratedAgain_keepsItsRows_idsGoOnGrowing_cacheIsABlock()
      throws Exception {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:audit-id-cache-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    h2.setUser("sa");
    versionOneOnly().migrate(h2);
    AuditRows rows = new AuditRows(h2);
    rows.insert(records("before", 40));
    assertThat(identityCacheOnH2(h2)).isEqualTo(32);

    assertThat(AuditSchema.migrate(h2)).isEqualTo(1);
    rows.insert(records("after", 40));

    assertThat(identityCacheOnH2(h2)).isEqualTo(AuditIdCache.H2_CACHE);
    assertThat(appliedVersions(h2)).containsExactly("1", "2");
    assertThat(query(h2, "SELECT COUNT(*) FROM belfry_audit")).isEqualTo(80);
    assertThat(
            query(
                h2,
                "SELECT MIN(id) FROM belfry_audit WHERE reminder_key LIKE 'after-%'"
                    + " AND id > (SELECT MAX(id) FROM belfry_audit WHERE reminder_key LIKE"
                    + " 'before-%')"))
        .as("every later row takes a larger id")
        .isPositive();
    assertThat(
            query(
                h2,
                "SELECT COUNT(*) FROM belfry_audit WHERE reminder_key LIKE 'after-%' AND id <"
                    + " (SELECT MAX(id) FROM belfry_audit WHERE reminder_key LIKE 'before-%')"))
        .isZero();
  }

  @Test
  void postgresql_versionTwoRecorded_sequenceLeftAsItWas() throws Exception {
    try (LocalPostgres.FreshSchema fresh = LocalPostgres.freshSchema("belfry_id_cache_")) {
      String schema = fresh.name();
      PGSimpleDataSource pg = fresh.dataSource();
      AuditSchema.migrate(pg);
      new AuditRows(pg).insert(records("pg", 3));

      assertThat(appliedVersions(pg)).containsExactly("1", "2");
      assertThat(
              query(
                  pg,
                  "SELECT cache_size FROM pg_sequences WHERE schemaname = '"
                      + schema
                      + "' AND sequencename = 'belfry_audit_id_seq'"))
          .isEqualTo(1);
      assertThat(query(pg, "SELECT COUNT(*) FROM belfry_audit")).isEqualTo(3);
    }
  }

  /** The audit schema as builds before version 2 migrated it. */
  private static VersionedSchema versionOneOnly() {
    return new VersionedSchema(
        AuditSchema.LOCATION,
        List.of("V1__audit.sql"),
        AuditSchema.HISTORY_TABLE,
        AuditSchema.class.getClassLoader());
  }

  private static List<PendingAudit> records(String prefix, int count) {
    List<PendingAudit> records = new ArrayList<>();
    Instant at = Instant.parse("2026-11-29T10:00:00Z");
    for (int i = 0; i < count; i++) {
      records.add(
          PendingAudit.of(
              AuditTestDatabase.activity(Type.SET, prefix + "-" + i, at.plusMillis(i)), at));
    }
    return records;
  }

  private static long identityCacheOnH2(DataSource h2) throws SQLException {
    return query(
        h2,
        "SELECT IDENTITY_CACHE FROM INFORMATION_SCHEMA.COLUMNS"
            + " WHERE TABLE_NAME = 'BELFRY_AUDIT' AND COLUMN_NAME = 'ID'");
  }

  private static List<String> appliedVersions(DataSource dataSource) throws SQLException {
    List<String> versions = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rows =
            s.executeQuery(
                "SELECT \"version\" FROM \""
                    + AuditSchema.HISTORY_TABLE
                    + "\" WHERE \"success\" AND \"version\" <> '0' ORDER BY \"installed_rank\"")) {
      while (rows.next()) {
        versions.add(rows.getString(1));
      }
    }
    return versions;
  }

  private static long query(DataSource dataSource, String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rows = s.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
