package io.belfry.audit;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Version 2 of the audit schema, on H2 only: the identity of {@code belfry_audit.id} hands out
 * {@value #H2_CACHE} values per write of its sequence instead of H2's default 32.
 *
 * <p>Why: H2 persists a sequence's position through a commit of its system session, which stores
 * every dirty page of the database. With 32 values per block the audit writer forced a store every
 * 32 rows; with {@code WRITE_DELAY=0} (how {@code server-config/cluster} opens H2) that store runs
 * on the writer's thread: 13 % of a node's CPU while it took batch sets (performance/rest-door.md,
 * "The audit's identity sequence"). A crash skips at most the unused rest of a block; ids only
 * break ties between rows of the same event time.
 *
 * <p>PostgreSQL is left as it was: its sequence position costs no page write, and its cache is per
 * session, so that rows of one node written through different connections would no longer take ids
 * in the order they were written. The version is recorded there too, as applied with nothing to do.
 */
final class AuditIdCache implements JavaMigration {

  static final int H2_CACHE = 1000;

  @Override
  public MigrationVersion getVersion() {
    return MigrationVersion.fromVersion("2");
  }

  @Override
  public String getDescription() {
    return "audit id cache (H2)";
  }

  /**
   * The block size stands for the migration's content, so that Flyway refuses to start on a
   * database migrated with another, as it does for an edited SQL migration.
   */
  @Override
  public Integer getChecksum() {
    return H2_CACHE;
  }

  @Override
  public boolean canExecuteInTransaction() {
    return true;
  }

  @Override
  public void migrate(Context context) throws SQLException {
    Connection connection = context.getConnection();
    if (!"H2".equals(connection.getMetaData().getDatabaseProductName())) {
      return;
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute("ALTER TABLE belfry_audit ALTER COLUMN id SET CACHE " + H2_CACHE);
    }
  }
}
