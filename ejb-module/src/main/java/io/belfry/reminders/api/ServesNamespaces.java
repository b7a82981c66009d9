package io.belfry.reminders.api;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Declares the namespaces whose reminders this deployment fires, on any class of the deployment
 * (typically the class that observes {@link ReminderFired}):
 *
 * <pre>{@code
 * @ServesNamespaces({"shop", "billing"})
 * @ApplicationScoped
 * public class CartReminders { ... }
 * }</pre>
 *
 * <p>Without it a deployment serves one namespace, its module name (the WAR's name without {@code
 * .war}). The first namespace declared is the caller's namespace: the one {@link Reminders} uses
 * when a request names none. Only deployments serving a namespace fire its reminders; a reminder
 * whose namespace nobody serves stays pending until a serving deployment starts.
 */
@Documented
@Retention(RUNTIME)
@Target(TYPE)
public @interface ServesNamespaces {
  String[] value();
}
