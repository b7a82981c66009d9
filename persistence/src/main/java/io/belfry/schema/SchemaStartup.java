package io.belfry.schema;

import io.belfry.audit.AuditDatabase;
import io.belfry.audit.AuditSchema;
import io.belfry.sinks.SinkSchema;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Migrates every Belfry schema on {@code BelfryDS} when the deployment starts, before anything else
 * of Belfry's starts: the audit archive, the sinks, and any schema another part of the deployment
 * contributes as a {@link VersionedSchema} bean (the console's users). Nodes sharing the database
 * take turns ({@link MigrationLock}); nothing migrates later, on a firing or delivery thread.
 *
 * <p>Its observer runs first ({@link Interceptor.Priority#PLATFORM_BEFORE}), so the engine, the
 * audit writer and the first admin start on migrated tables. A database that cannot be reached
 * holds the deployment's start and is tried again every {@link #RETRY}; after {@code
 * belfry.schema-wait} (default {@link #DEFAULT_WAIT}) the deployment fails with that cause, rather
 * than run a node that would fail its deliveries (docs/operations.md).
 */
@ApplicationScoped
public class SchemaStartup {

  private static final Logger LOG = Logger.getLogger(SchemaStartup.class);

  static final Duration RETRY = Duration.ofSeconds(2);

  static final Duration DEFAULT_WAIT = Duration.ofMinutes(2);

  /** System property: how long a deployment waits for its database at start. */
  public static final String WAIT_PROPERTY = "belfry.schema-wait";

  @Resource(lookup = AuditDatabase.DATASOURCE)
  DataSource dataSource;

  @Inject @Any Instance<VersionedSchema> contributed;

  void onStart(
      @Observes
          @Priority(Interceptor.Priority.PLATFORM_BEFORE)
          @Initialized(ApplicationScoped.class)
          Object ignored)
      throws InterruptedException {
    List<VersionedSchema> schemas = new ArrayList<>();
    schemas.add(AuditSchema.SCHEMA);
    schemas.add(SinkSchema.SCHEMA);
    contributed.forEach(schemas::add);
    migrateAll(dataSource, schemas, configuredWait());
  }

  /**
   * Migrates {@code schemas} under the {@link MigrationLock}, trying again every {@link #RETRY}
   * until {@code wait} has passed.
   *
   * @throws IllegalStateException with the last failure, if no attempt succeeded in time
   */
  static void migrateAll(DataSource dataSource, List<VersionedSchema> schemas, Duration wait)
      throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    for (int attempt = 1; ; attempt++) {
      try {
        MigrationLock.holding(
            dataSource,
            () -> {
              for (VersionedSchema schema : schemas) {
                int applied = schema.migrate(dataSource);
                LOG.infof(
                    "BELFRY-0400 Schema %s up to date (%d migrations applied now)",
                    schema.location(), applied);
              }
            });
        return;
      } catch (Exception e) {
        if (System.nanoTime() - deadline >= 0) {
          throw new IllegalStateException(
              "BELFRY-0409 Belfry's schemas could not be migrated on BelfryDS within "
                  + wait
                  + " ("
                  + attempt
                  + " attempts; set "
                  + WAIT_PROPERTY
                  + " to wait longer): "
                  + e,
              e);
        }
        LOG.warnf(
            "BELFRY-0408 Could not migrate Belfry's schemas (attempt %d), trying again in %s: %s",
            attempt, RETRY, e.toString());
        Thread.sleep(RETRY.toMillis());
      }
    }
  }

  private static Duration configuredWait() {
    String value = System.getProperty(WAIT_PROPERTY);
    if (value == null || value.isBlank()) {
      return DEFAULT_WAIT;
    }
    try {
      return Duration.parse(value.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "system property " + WAIT_PROPERTY + "='" + value + "' is not an ISO 8601 duration", e);
    }
  }
}
