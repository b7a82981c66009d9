package io.belfry.sinks;

import io.belfry.schema.VersionedSchema;
import java.util.List;
import javax.sql.DataSource;

/**
 * The sinks' schema: table {@code belfry_sink}. A schema of its own, with its own history table,
 * like the users' ({@code belfry-security}): migrated at deployment start with the others ({@link
 * io.belfry.schema.SchemaStartup}), and its versions never interleave with the audit archive's.
 */
public final class SinkSchema {

  public static final String LOCATION = "db/belfry-sinks";

  public static final String HISTORY_TABLE = "belfry_sinks_schema_history";

  public static final VersionedSchema SCHEMA =
      new VersionedSchema(
          LOCATION,
          List.of("V1__sinks.sql", "V2__sinks_jms.sql"),
          HISTORY_TABLE,
          SinkSchema.class.getClassLoader());

  private SinkSchema() {}

  /** Applies the pending migrations; returns how many ran. */
  public static int migrate(DataSource dataSource) {
    return SCHEMA.migrate(dataSource);
  }
}
