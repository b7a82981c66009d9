package io.belfry.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.api.InvalidReminderException;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.wildfly.security.password.PasswordFactory;
import org.wildfly.security.password.WildFlyElytronPasswordProvider;
import org.wildfly.security.password.interfaces.BCryptPassword;
import org.wildfly.security.password.spec.IteratedSaltedHashPasswordSpec;

/**
 * The first admin on a real (H2) user table, hashed with Elytron's bcrypt: the random password is
 * handed out once and verifies against the stored hash, the environment's credentials are taken
 * instead when given, and a second start creates nothing.
 */
class InitialAdminTest {

  private JdbcDataSource database;
  private ValidatorFactory validation;
  private UserDirectory users;

  @BeforeEach
  void createDatabase() {
    database = new JdbcDataSource();
    database.setURL("jdbc:h2:mem:users-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    validation = Validation.buildDefaultValidatorFactory();
    users = new UserDirectory(database, validation.getValidator());
    System.setProperty(PasswordHashing.COST_PROPERTY, "4");
  }

  @AfterEach
  void close() {
    validation.close();
    System.clearProperty(PasswordHashing.COST_PROPERTY);
  }

  @Test
  void createIfNone_noEnvironment_randomPasswordShownOnceAndStoredOnlyAsItsHash() throws Exception {
    InitialAdmin.Created admin = InitialAdmin.createIfNone(users, Map.of()).orElseThrow();

    assertThat(admin.name()).matches("admin-[A-Za-z0-9]{6}");
    assertThat(admin.generatedPassword()).hasSize(20);
    assertThat(verifies(admin.name(), admin.generatedPassword())).isTrue();
    assertThat(verifies(admin.name(), admin.generatedPassword() + "x")).isFalse();
    assertThat(storedRow(admin.name())).doesNotContain(admin.generatedPassword());
    assertThat(users.list())
        .containsExactly(
            new UserDirectory.User(admin.name(), java.util.List.of(Roles.ADMIN, Roles.VIEWER)));

    assertThat(InitialAdmin.createIfNone(users, Map.of()))
        .as("a restart creates nothing")
        .isEmpty();
  }

  @Test
  void createIfNone_environment_takesItsNameAndPassword() throws Exception {
    InitialAdmin.Created admin =
        InitialAdmin.createIfNone(
                users,
                Map.of(
                    InitialAdmin.USER_VARIABLE, "ops",
                    InitialAdmin.PASSWORD_VARIABLE, "correct-horse-battery"))
            .orElseThrow();

    assertThat(admin.name()).isEqualTo("ops");
    assertThat(admin.generatedPassword()).isNull();
    assertThat(verifies("ops", "correct-horse-battery")).isTrue();
  }

  @Test
  void createIfNone_environmentPasswordTooShort_refusedAndNobodyCreated() throws Exception {
    assertThatThrownBy(
            () ->
                InitialAdmin.createIfNone(
                    users,
                    Map.of(
                        InitialAdmin.USER_VARIABLE,
                        "ops",
                        InitialAdmin.PASSWORD_VARIABLE,
                        "short")))
        .isInstanceOf(InvalidReminderException.class)
        .hasMessageContaining("password");
    assertThat(users.count()).isZero();
  }

  /** Verifies {@code password} the way the realm's bcrypt-mapper does: from the stored columns. */
  private boolean verifies(String name, String password) throws Exception {
    try (Connection c = database.getConnection();
        PreparedStatement select =
            c.prepareStatement(
                "SELECT password_hash, password_salt, iterations FROM belfry_user WHERE name = ?")) {
      select.setString(1, name);
      try (ResultSet row = select.executeQuery()) {
        row.next();
        PasswordFactory factory =
            PasswordFactory.getInstance(
                BCryptPassword.ALGORITHM_BCRYPT, WildFlyElytronPasswordProvider.getInstance());
        var stored =
            factory.generatePassword(
                new IteratedSaltedHashPasswordSpec(
                    Base64.getDecoder().decode(row.getString(1)),
                    Base64.getDecoder().decode(row.getString(2)),
                    row.getInt(3)));
        return factory.verify(stored, password.toCharArray());
      }
    }
  }

  private String storedRow(String name) throws Exception {
    try (Connection c = database.getConnection();
        PreparedStatement select = c.prepareStatement("SELECT * FROM belfry_user WHERE name = ?")) {
      select.setString(1, name);
      try (ResultSet row = select.executeQuery()) {
        row.next();
        StringBuilder all = new StringBuilder();
        for (int i = 1; i <= row.getMetaData().getColumnCount(); i++) {
          all.append(row.getString(i)).append('|');
        }
        return all.toString();
      }
    }
  }
}
