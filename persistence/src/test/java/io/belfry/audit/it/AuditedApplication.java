package io.belfry.audit.it;

import io.belfry.reminders.api.Namespace;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ServesNamespaces;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** The test application: serves namespace {@value #NAMESPACE}, so its reminders fire here. */
@ServesNamespaces(AuditedApplication.NAMESPACE)
@ApplicationScoped
public class AuditedApplication {

  public static final String NAMESPACE = "it-audit";

  void onFire(@Observes @Namespace(NAMESPACE) ReminderFired fired) {
    // delivery itself is not under test here; the audit of it is
  }
}
