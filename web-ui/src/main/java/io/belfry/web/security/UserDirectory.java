package io.belfry.web.security;

import io.belfry.audit.AuditDatabase;
import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.schema.VersionedSchema;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.validation.Validator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * The users the Elytron realm {@code belfry-realm} authenticates, in {@code belfry_user} and {@code
 * belfry_user_role} of {@code BelfryDS}. Passwords are stored only as bcrypt hashes.
 */
@ApplicationScoped
public class UserDirectory {

  static final VersionedSchema SCHEMA =
      new VersionedSchema(
          "db/belfry-security",
          List.of("V1__users.sql", "V2__api_tokens.sql", "V3__api_token_scope.sql"),
          "belfry_security_schema_history",
          UserDirectory.class.getClassLoader());

  @Resource(lookup = AuditDatabase.DATASOURCE)
  DataSource dataSource;

  @Inject Validator validator;

  /** For CDI. */
  public UserDirectory() {}

  /** On a given datasource and validator, outside the container (unit tests). */
  UserDirectory(DataSource dataSource, Validator validator) {
    this.dataSource = dataSource;
    this.validator = validator;
  }

  /** A user as listed: name and roles, never the hash. */
  public record User(String name, List<String> roles) {}

  /**
   * Contributed to {@link io.belfry.schema.SchemaStartup}, which migrates it with Belfry's other
   * schemas, under their cross-node lock, when the deployment starts.
   */
  @Produces
  static VersionedSchema schema() {
    return SCHEMA;
  }

  /**
   * The database of the users (BelfryDS), for work that must hold the {@link
   * io.belfry.schema.MigrationLock}.
   */
  public DataSource dataSource() {
    return dataSource;
  }

  /** Creates the tables if they are missing; returns how many migrations ran. */
  public int migrate() {
    return SCHEMA.migrate(dataSource);
  }

  public long count() throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement count = c.prepareStatement("SELECT COUNT(*) FROM belfry_user");
        ResultSet rows = count.executeQuery()) {
      rows.next();
      return rows.getLong(1);
    }
  }

  public List<User> list() throws SQLException {
    Map<String, TreeSet<String>> users = new TreeMap<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement select =
            c.prepareStatement(
                "SELECT u.name, r.role FROM belfry_user u"
                    + " LEFT JOIN belfry_user_role r ON r.name = u.name");
        ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        TreeSet<String> roles = users.computeIfAbsent(rows.getString(1), n -> new TreeSet<>());
        if (rows.getString(2) != null) {
          roles.add(rows.getString(2));
        }
      }
    }
    List<User> result = new ArrayList<>();
    users.forEach((name, roles) -> result.add(new User(name, List.copyOf(roles))));
    return result;
  }

  /**
   * Creates or replaces the user: password and roles as given.
   *
   * @return true if the user is new
   * @throws InvalidReminderException if the account breaks a rule; nothing changed
   */
  public boolean save(UserAccount account) throws SQLException {
    JsonFields.validate(validator, account);
    PasswordHashing.Hashed hashed = PasswordHashing.hash(account.password());
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        boolean created = delete(c, account.name()) == 0;
        try (PreparedStatement insert =
            c.prepareStatement(
                "INSERT INTO belfry_user (name, password_hash, password_salt, iterations,"
                    + " created_at) VALUES (?, ?, ?, ?, ?)")) {
          insert.setString(1, account.name());
          insert.setString(2, hashed.hash());
          insert.setString(3, hashed.salt());
          insert.setInt(4, hashed.iterations());
          insert.setObject(5, OffsetDateTime.now(ZoneOffset.UTC));
          insert.executeUpdate();
        }
        try (PreparedStatement role =
            c.prepareStatement("INSERT INTO belfry_user_role (name, role) VALUES (?, ?)")) {
          for (String name : account.roles()) {
            role.setString(1, account.name());
            role.setString(2, name);
            role.addBatch();
          }
          role.executeBatch();
        }
        c.commit();
        return created;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(autoCommit);
      }
    }
  }

  /** The user's roles as stored now; empty if there is no such user. */
  public Optional<Set<String>> roles(String name) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement select =
            c.prepareStatement(
                "SELECT r.role FROM belfry_user u LEFT JOIN belfry_user_role r ON r.name = u.name"
                    + " WHERE u.name = ?")) {
      select.setString(1, name);
      try (ResultSet rows = select.executeQuery()) {
        if (!rows.next()) {
          return Optional.empty();
        }
        Set<String> roles = new TreeSet<>();
        do {
          if (rows.getString(1) != null) {
            roles.add(rows.getString(1));
          }
        } while (rows.next());
        return Optional.of(roles);
      }
    }
  }

  /** Removes the user; false if there was none. */
  public boolean remove(String name) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      return delete(c, name) > 0;
    }
  }

  private static int delete(Connection c, String name) throws SQLException {
    try (PreparedStatement roles =
            c.prepareStatement("DELETE FROM belfry_user_role WHERE name = ?");
        PreparedStatement user = c.prepareStatement("DELETE FROM belfry_user WHERE name = ?")) {
      roles.setString(1, name);
      roles.executeUpdate();
      user.setString(1, name);
      return user.executeUpdate();
    }
  }
}
