package io.belfry.audit;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * At deployment start: migrates the audit schema, then starts the writer and the retention
 * schedule. If the database is down now, the writer keeps its records (and spills them) until it
 * answers; the next deployment start migrates.
 */
@ApplicationScoped
public class AuditStartup {

  private static final Logger LOG = Logger.getLogger(AuditStartup.class);

  @Resource(lookup = AuditDatabase.DATASOURCE)
  DataSource dataSource;

  @Inject AuditWriter writer;

  @Inject AuditRetention retention;

  void onStart(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
    try {
      int applied = AuditSchema.migrate(dataSource);
      LOG.infof("BELFRY-0400 Audit schema up to date (%d migrations applied now)", applied);
    } catch (RuntimeException e) {
      LOG.errorf(e, "BELFRY-0408 Could not migrate the audit schema; audit records will wait");
    }
    // a client-proxy call: creates the writer, whose @PostConstruct starts its thread
    writer.queueDepth();
    retention.schedule();
  }
}
