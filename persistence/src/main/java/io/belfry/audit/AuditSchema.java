package io.belfry.audit;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.ResourceProvider;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.core.api.resource.LoadableResource;

/**
 * Brings the audit schema to the newest version with Flyway, at deployment start.
 *
 * <p>Migrations live in {@value #LOCATION}. Flyway is not asked to scan for them: inside WildFly
 * the deployment's jars are served through JBoss VFS ({@code vfs:} URLs), which Flyway only reads
 * when the server's {@code org.jboss.vfs} module is visible to the deployment. Instead the
 * migrations are named in {@link #MIGRATIONS} and loaded through the class loader, which works the
 * same in WildFly, in a plain JVM and in tests. A new migration is added to the folder and to that
 * list.
 */
public final class AuditSchema {

  /** Where the SQL migrations are, on the class path. */
  public static final String LOCATION = "db/belfry-audit";

  /** Every migration, oldest first. */
  static final List<String> MIGRATIONS = List.of("V1__audit.sql");

  /** Flyway's bookkeeping table, named for Belfry so it cannot clash with an application's. */
  public static final String HISTORY_TABLE = "belfry_audit_schema_history";

  private AuditSchema() {}

  /** Applies the pending migrations; returns how many ran. */
  public static int migrate(DataSource dataSource) {
    ClassLoader loader = AuditSchema.class.getClassLoader();
    MigrateResult result =
        Flyway.configure(loader)
            .dataSource(dataSource)
            .locations("classpath:" + LOCATION)
            .resourceProvider(new ListedMigrations(loader))
            .table(HISTORY_TABLE)
            .load()
            .migrate();
    return result.migrationsExecuted;
  }

  /** The migrations of {@link #MIGRATIONS}, as Flyway asks for them by prefix and suffix. */
  private static final class ListedMigrations implements ResourceProvider {

    private final ClassLoader loader;

    ListedMigrations(ClassLoader loader) {
      this.loader = loader;
    }

    @Override
    public LoadableResource getResource(String name) {
      String file = name.substring(name.lastIndexOf('/') + 1);
      return MIGRATIONS.contains(file) ? new Migration(loader, file) : null;
    }

    @Override
    public Collection<LoadableResource> getResources(String prefix, String[] suffixes) {
      return MIGRATIONS.stream()
          .filter(file -> file.startsWith(prefix))
          .filter(file -> Arrays.stream(suffixes).anyMatch(file::endsWith))
          .<LoadableResource>map(file -> new Migration(loader, file))
          .toList();
    }
  }

  private static final class Migration extends LoadableResource {

    private final ClassLoader loader;
    private final String file;

    Migration(ClassLoader loader, String file) {
      this.loader = loader;
      this.file = file;
    }

    @Override
    public Reader read() {
      InputStream in = loader.getResourceAsStream(getAbsolutePath());
      if (in == null) {
        throw new UncheckedIOException(new IOException("missing migration " + getAbsolutePath()));
      }
      return new InputStreamReader(in, StandardCharsets.UTF_8);
    }

    @Override
    public String getAbsolutePath() {
      return LOCATION + "/" + file;
    }

    @Override
    public String getAbsolutePathOnDisk() {
      return getAbsolutePath();
    }

    @Override
    public String getFilename() {
      return file;
    }

    @Override
    public String getRelativePath() {
      return file;
    }
  }
}
