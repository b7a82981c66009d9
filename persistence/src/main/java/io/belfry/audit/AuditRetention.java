package io.belfry.audit;

import io.belfry.reminders.config.BelfryExecutor;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Purges audit records older than {@value #RETENTION_PROPERTY} (an ISO-8601 duration, default
 * {@code P30D}), every {@link #INTERVAL}, on Belfry's scheduled executor.
 */
@ApplicationScoped
public class AuditRetention {

  private static final Logger LOG = Logger.getLogger(AuditRetention.class);

  public static final String RETENTION_PROPERTY = "belfry.audit.retention";
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(30);
  public static final Duration INTERVAL = Duration.ofHours(1);
  // not at deployment start, which is busy enough; soon enough that a restart does not skip it
  private static final Duration FIRST_RUN = Duration.ofMinutes(1);

  @Resource(lookup = AuditDatabase.DATASOURCE)
  DataSource dataSource;

  @Inject @BelfryExecutor ManagedScheduledExecutorService scheduler;

  private final Clock clock = Clock.systemUTC();
  private ScheduledFuture<?> schedule;

  /** Schedules the hourly purge; called once at deployment start. */
  public synchronized void schedule() {
    if (schedule == null) {
      schedule =
          scheduler.scheduleWithFixedDelay(
              this::purge, FIRST_RUN.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** Purges now; returns how many records went. Never throws: the schedule must keep running. */
  public long purge() {
    Duration retention = retention();
    try {
      long purged =
          new AuditPurge(dataSource, AuditPurge.DEFAULT_BATCH_SIZE)
              .purgeOlderThan(clock.instant().minus(retention));
      if (purged > 0) {
        LOG.infof("BELFRY-0410 Purged %d audit records older than %s", purged, retention);
      }
      return purged;
    } catch (SQLException | RuntimeException e) {
      LOG.warnf(e, "BELFRY-0411 Audit retention purge failed; it runs again in %s", INTERVAL);
      return 0;
    }
  }

  static Duration retention() {
    String configured = System.getProperty(RETENTION_PROPERTY);
    if (configured == null || configured.isBlank()) {
      return DEFAULT_RETENTION;
    }
    try {
      Duration parsed = Duration.parse(configured.trim());
      if (parsed.isNegative() || parsed.isZero()) {
        throw new DateTimeParseException("not positive", configured, 0);
      }
      return parsed;
    } catch (DateTimeParseException e) {
      LOG.warnf(
          "BELFRY-0412 %s=%s is not a positive ISO-8601 duration; using %s",
          RETENTION_PROPERTY, configured, DEFAULT_RETENTION);
      return DEFAULT_RETENTION;
    }
  }

  @PreDestroy
  synchronized void cancel() {
    if (schedule != null) {
      schedule.cancel(false);
    }
  }
}
