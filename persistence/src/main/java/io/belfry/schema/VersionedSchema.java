package io.belfry.schema;

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
import org.flywaydb.core.api.migration.JavaMigration;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.core.api.resource.LoadableResource;

/**
 * A database schema of Belfry's, versioned and migrated by Flyway: its SQL migrations in one folder
 * on the class path, its own history table.
 *
 * <p>Flyway is not asked to scan for migrations: inside WildFly a deployment's jars are served
 * through JBoss VFS ({@code vfs:} URLs), which Flyway only reads when the server's {@code
 * org.jboss.vfs} module is visible to the deployment. Instead each schema names its migrations,
 * loaded through a class loader, which works the same in WildFly, in a plain JVM and in tests. A
 * new migration is added to the folder and to that list.
 *
 * @param location the folder of the migrations on the class path, e.g. {@code db/belfry-audit}
 * @param migrations every SQL migration's file name, oldest first
 * @param historyTable Flyway's bookkeeping table, named for Belfry so it cannot clash with an
 *     application's
 * @param loader the class loader that sees the migrations
 * @param javaMigrations migrations written in Java, for a change that differs between databases;
 *     their versions interleave with the SQL ones'
 */
public record VersionedSchema(
    String location,
    List<String> migrations,
    String historyTable,
    ClassLoader loader,
    List<JavaMigration> javaMigrations) {

  public VersionedSchema {
    migrations = List.copyOf(migrations);
    javaMigrations = List.copyOf(javaMigrations);
  }

  /** A schema migrated by SQL files only. */
  public VersionedSchema(
      String location, List<String> migrations, String historyTable, ClassLoader loader) {
    this(location, migrations, historyTable, loader, List.of());
  }

  /** How many versions the schema has, SQL and Java. */
  public int versionCount() {
    return migrations.size() + javaMigrations.size();
  }

  /** Applies the pending migrations; returns how many ran. */
  public int migrate(DataSource dataSource) {
    MigrateResult result =
        Flyway.configure(loader)
            .dataSource(dataSource)
            .locations("classpath:" + location)
            .resourceProvider(new ListedMigrations(this))
            .javaMigrations(javaMigrations.toArray(JavaMigration[]::new))
            .table(historyTable)
            // Several schemas (and the application's tables) share one database schema: a history
            // table of its own that is missing means "nothing applied yet", not "not Flyway's".
            .baselineOnMigrate(true)
            .baselineVersion("0")
            .load()
            .migrate();
    return result.migrationsExecuted;
  }

  /** The listed migrations, as Flyway asks for them by prefix and suffix. */
  private static final class ListedMigrations implements ResourceProvider {

    private final VersionedSchema schema;

    ListedMigrations(VersionedSchema schema) {
      this.schema = schema;
    }

    @Override
    public LoadableResource getResource(String name) {
      String file = name.substring(name.lastIndexOf('/') + 1);
      return schema.migrations().contains(file) ? new Migration(schema, file) : null;
    }

    @Override
    public Collection<LoadableResource> getResources(String prefix, String[] suffixes) {
      return schema.migrations().stream()
          .filter(file -> file.startsWith(prefix))
          .filter(file -> Arrays.stream(suffixes).anyMatch(file::endsWith))
          .<LoadableResource>map(file -> new Migration(schema, file))
          .toList();
    }
  }

  private static final class Migration extends LoadableResource {

    private final VersionedSchema schema;
    private final String file;

    Migration(VersionedSchema schema, String file) {
      this.schema = schema;
      this.file = file;
    }

    @Override
    public Reader read() {
      InputStream in = schema.loader().getResourceAsStream(getAbsolutePath());
      if (in == null) {
        throw new UncheckedIOException(new IOException("missing migration " + getAbsolutePath()));
      }
      return new InputStreamReader(in, StandardCharsets.UTF_8);
    }

    @Override
    public String getAbsolutePath() {
      return schema.location() + "/" + file;
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
