package io.belfry.web.security;

import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.config.BelfryExecutor;
import io.belfry.schema.MigrationLock;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * No default password: when the deployment starts and the user table is empty, creates the first
 * admin. Its name and password come from {@code BELFRY_ADMIN_USER} / {@code BELFRY_ADMIN_PASSWORD}
 * when both are set (automated set-ups); otherwise the admin is {@code admin-} and 6 random
 * characters, with a random password, printed once to the server log and stored only as a bcrypt
 * hash. With users present it does nothing, so a restart never prints or changes a password.
 */
@ApplicationScoped
public class InitialAdmin {

  public static final String USER_VARIABLE = "BELFRY_ADMIN_USER";
  public static final String PASSWORD_VARIABLE = "BELFRY_ADMIN_PASSWORD";

  /**
   * The generated admin's name is {@code admin-} and 6 random characters: not a name an attacker
   * can assume, so a guess needs both the name and the password.
   */
  static final String GENERATED_NAME_PREFIX = "admin-";

  private static final Duration RETRY = Duration.ofSeconds(30);

  private static final Logger LOG = Logger.getLogger(InitialAdmin.class);

  @Inject UserDirectory users;

  @Inject @BelfryExecutor ManagedScheduledExecutorService scheduler;

  private volatile ScheduledFuture<?> retry;

  void onStart(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
    if (!ensureAdmin()) {
      retry =
          scheduler.scheduleWithFixedDelay(
              () -> {
                if (ensureAdmin()) {
                  retry.cancel(false);
                }
              },
              RETRY.toMillis(),
              RETRY.toMillis(),
              TimeUnit.MILLISECONDS);
    }
  }

  /** Returns false if the database could not be reached (retried later). */
  boolean ensureAdmin() {
    try {
      // under the migration lock: two fresh nodes must not both find no user and both create one
      MigrationLock.holding(
          users.dataSource(),
          () -> createIfNone(users, System.getenv()).ifPresent(InitialAdmin::announce));
      return true;
    } catch (InvalidReminderException e) {
      LOG.errorf(
          "BELFRY-0602 %s / %s do not make a valid admin (%s); no user was created",
          USER_VARIABLE, PASSWORD_VARIABLE, e.getMessage());
      return true;
    } catch (Exception e) {
      LOG.errorf(e, "BELFRY-0603 Could not check the user table; retrying in %s", RETRY);
      return false;
    }
  }

  /**
   * What {@link #createIfNone} created.
   *
   * @param generatedPassword the random password, to show once; {@code null} when the password came
   *     from the environment
   */
  record Created(String name, String generatedPassword) {}

  /**
   * Migrates the user table and, if it holds no user, creates the first admin from {@code
   * environment} or with a random password.
   *
   * @return the admin created, or empty if there were users already
   * @throws InvalidReminderException if the environment's name or password breaks the rules
   */
  static Optional<Created> createIfNone(UserDirectory users, Map<String, String> environment)
      throws SQLException {
    users.migrate();
    if (users.count() > 0) {
      return Optional.empty();
    }
    String name = environment.get(USER_VARIABLE);
    String password = environment.get(PASSWORD_VARIABLE);
    boolean fromEnvironment = name != null && password != null;
    if (!fromEnvironment) {
      name = GENERATED_NAME_PREFIX + PasswordHashing.randomText(6);
      password = PasswordHashing.randomPassword();
    }
    users.save(new UserAccount(name, password, Set.of(Roles.ADMIN, Roles.VIEWER)));
    return Optional.of(new Created(name, fromEnvironment ? null : password));
  }

  private static void announce(Created admin) {
    if (admin.generatedPassword() == null) {
      LOG.infof(
          "BELFRY-0600 Created the first admin '%s' from %s / %s",
          admin.name(), USER_VARIABLE, PASSWORD_VARIABLE);
    } else {
      // Printed once, here; only its bcrypt hash is stored.
      LOG.warnf(
          "BELFRY-0601 Created the first admin '%s' with password %s"
              + " -- shown only this once: store it, or replace it (docs/security.md)",
          admin.name(), admin.generatedPassword());
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
