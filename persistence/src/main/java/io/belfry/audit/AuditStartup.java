package io.belfry.audit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * At deployment start, once {@link io.belfry.schema.SchemaStartup} has migrated the schema: starts
 * the writer and the retention schedule. If the database goes down later, the writer keeps its
 * records (spilling them if need be) and writes them when it is back.
 */
@ApplicationScoped
public class AuditStartup {

  @Inject AuditWriter writer;

  @Inject AuditRetention retention;

  void onStart(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
    // a client-proxy call: creates the writer, whose @PostConstruct starts its thread
    writer.queueDepth();
    retention.schedule();
  }
}
