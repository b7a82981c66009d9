package io.belfry.audit;

import io.belfry.reminders.config.BelfryExecutor;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * At deployment start: migrates the audit schema, then starts the writer and the retention
 * schedule. If the database is down now, the migration is retried every {@link #MIGRATION_RETRY} on
 * Belfry's scheduler; meanwhile the writer keeps its records (spilling them if need be), and writes
 * them once the schema exists.
 */
@ApplicationScoped
public class AuditStartup {

  private static final Logger LOG = Logger.getLogger(AuditStartup.class);

  static final Duration MIGRATION_RETRY = Duration.ofSeconds(30);

  @Resource(lookup = AuditDatabase.DATASOURCE)
  DataSource dataSource;

  @Inject AuditWriter writer;

  @Inject AuditRetention retention;

  @Inject @BelfryExecutor ManagedScheduledExecutorService scheduler;

  private volatile ScheduledFuture<?> retry;

  void onStart(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
    if (!migrate()) {
      retry =
          scheduler.scheduleWithFixedDelay(
              this::retryMigration,
              MIGRATION_RETRY.toMillis(),
              MIGRATION_RETRY.toMillis(),
              TimeUnit.MILLISECONDS);
    }
    // a client-proxy call: creates the writer, whose @PostConstruct starts its thread
    writer.queueDepth();
    retention.schedule();
  }

  private void retryMigration() {
    if (migrate()) {
      retry.cancel(false);
    }
  }

  private boolean migrate() {
    try {
      int applied = AuditSchema.migrate(dataSource);
      LOG.infof("BELFRY-0400 Audit schema up to date (%d migrations applied now)", applied);
      return true;
    } catch (RuntimeException e) {
      LOG.errorf(
          e, "BELFRY-0408 Could not migrate the audit schema; retrying in %s", MIGRATION_RETRY);
      return false;
    }
  }

  @PreDestroy
  void stopRetrying() {
    ScheduledFuture<?> pending = retry;
    if (pending != null) {
      pending.cancel(false);
    }
  }
}
