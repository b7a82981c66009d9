package io.belfry.audit;

import io.belfry.schema.VersionedSchema;
import java.util.List;
import javax.sql.DataSource;

/** The audit archive's schema: table {@code belfry_audit}, migrated at deployment start. */
public final class AuditSchema {

  /** Where the SQL migrations are, on the class path. */
  public static final String LOCATION = "db/belfry-audit";

  /** Flyway's bookkeeping table for this schema. */
  public static final String HISTORY_TABLE = "belfry_audit_schema_history";

  public static final VersionedSchema SCHEMA =
      new VersionedSchema(
          LOCATION,
          List.of("V1__audit.sql"),
          HISTORY_TABLE,
          AuditSchema.class.getClassLoader(),
          List.of(new AuditIdCache()));

  private AuditSchema() {}

  /** Applies the pending migrations; returns how many ran. */
  public static int migrate(DataSource dataSource) {
    return SCHEMA.migrate(dataSource);
  }
}
