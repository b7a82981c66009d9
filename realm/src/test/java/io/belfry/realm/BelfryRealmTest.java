package io.belfry.realm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.wildfly.security.auth.principal.NamePrincipal;
import org.wildfly.security.auth.server.RealmIdentity;
import org.wildfly.security.evidence.BearerTokenEvidence;
import org.wildfly.security.evidence.PasswordGuessEvidence;
import org.wildfly.security.password.PasswordFactory;
import org.wildfly.security.password.WildFlyElytronPasswordProvider;
import org.wildfly.security.password.interfaces.BCryptPassword;
import org.wildfly.security.password.spec.EncryptablePasswordSpec;
import org.wildfly.security.password.spec.IteratedSaltedPasswordAlgorithmSpec;

/**
 * The realm on the users' real schema (web-ui's migration, run on H2): bcrypt runs once per
 * credential within the ttl, never for a cached wrong password, and a changed password, a removed
 * user or a removed role shows on the very next request.
 */
class BelfryRealmTest {

  private static final Path USERS_SCHEMA =
      Path.of("../web-ui/src/main/resources/db/belfry-security/V1__users.sql");
  private static final Path TOKENS_SCHEMA =
      Path.of("../web-ui/src/main/resources/db/belfry-security/V2__api_tokens.sql");
  private static final Path TOKEN_SCOPE_SCHEMA =
      Path.of("../web-ui/src/main/resources/db/belfry-security/V3__api_token_scope.sql");

  private final JdbcDataSource h2 = new JdbcDataSource();
  private final AtomicLong nanos = new AtomicLong();
  private Connection keepOpen;
  private BelfryRealm realm;
  private final KnownTokens known = new KnownTokens(nanos::get);

  @BeforeEach
  void database() throws Exception {
    h2.setURL("jdbc:h2:mem:realm-" + UUID.randomUUID());
    h2.setUser("sa");
    keepOpen = h2.getConnection();
    try (Statement ddl = keepOpen.createStatement()) {
      ddl.execute(Files.readString(USERS_SCHEMA));
      ddl.execute(Files.readString(TOKENS_SCHEMA));
      ddl.execute(Files.readString(TOKEN_SCOPE_SCHEMA));
    }
    realm =
        new BelfryRealm(
            h2, new VerifiedPasswords(Duration.ofMinutes(5).toNanos(), nanos::get), known);
    saveUser("alice", "alice-password-1", "belfry-admin", "belfry-viewer");
  }

  @AfterEach
  void close() throws SQLException {
    keepOpen.close();
  }

  @Test
  void rightPassword_bcryptOnce_thenRememberedForTheTtl() throws Exception {
    for (int i = 0; i < 5; i++) {
      assertThat(login("alice", "alice-password-1")).isTrue();
    }
    assertThat(realm.bcryptRuns).hasValue(1);

    nanos.addAndGet(Duration.ofMinutes(5).toNanos());
    assertThat(login("alice", "alice-password-1")).isTrue();
    assertThat(realm.bcryptRuns).as("hashed again after the ttl").hasValue(2);
  }

  @Test
  void wrongPassword_alwaysBcrypt_neverRemembered() throws Exception {
    assertThat(login("alice", "alice-password-1")).isTrue();
    for (int i = 0; i < 3; i++) {
      assertThat(login("alice", "wrong-password")).isFalse();
    }
    assertThat(realm.bcryptRuns).as("every wrong guess pays bcrypt").hasValue(4);
  }

  @Test
  void passwordChanged_oldPasswordRefusedAtOnce_newOneAccepted() throws Exception {
    assertThat(login("alice", "alice-password-1")).isTrue();
    execute("DELETE FROM belfry_user WHERE name = 'alice'");
    saveUser("alice", "alice-password-2", "belfry-viewer");

    assertThat(login("alice", "alice-password-1")).isFalse();
    assertThat(login("alice", "alice-password-2")).isTrue();
  }

  @Test
  void userRemoved_unknownAtOnce() throws Exception {
    assertThat(login("alice", "alice-password-1")).isTrue();
    execute("DELETE FROM belfry_user WHERE name = 'alice'");

    assertThat(realm.getRealmIdentity(new NamePrincipal("alice")).exists()).isFalse();
  }

  @Test
  void roleRemoved_goneFromTheNextRequest() throws Exception {
    RealmIdentity before = realm.getRealmIdentity(new NamePrincipal("alice"));
    assertThat(before.getAuthorizationIdentity().getAttributes().get(BelfryRealm.ROLES))
        .containsExactlyInAnyOrder("belfry-admin", "belfry-viewer");

    execute("DELETE FROM belfry_user_role WHERE name = 'alice' AND role = 'belfry-admin'");

    RealmIdentity after = realm.getRealmIdentity(new NamePrincipal("alice"));
    assertThat(after.getAuthorizationIdentity().getAttributes().get(BelfryRealm.ROLES))
        .containsExactly("belfry-viewer");
  }

  @Test
  void bearerToken_foundByItsHash_rolesAndLastUse_revokedAtOnce() throws Exception {
    String token = "bft_" + UUID.randomUUID();
    execute(
        "INSERT INTO belfry_api_token (id, name, token_hash, roles, created_at) VALUES ('t1', 'ci',"
            + " '"
            + TokenRows.hash(token)
            + "', 'belfry-viewer', CURRENT_TIMESTAMP)");

    RealmIdentity identity = realm.getRealmIdentity(new BearerTokenEvidence(token));
    assertThat(identity.exists()).isTrue();
    assertThat(identity.verifyEvidence(new BearerTokenEvidence(token))).isTrue();
    assertThat(identity.verifyEvidence(new PasswordGuessEvidence(token.toCharArray())))
        .as("a password never authenticates a token")
        .isFalse();
    assertThat(identity.getRealmIdentityPrincipal().getName()).isEqualTo("token:ci");
    assertThat(identity.getAuthorizationIdentity().getAttributes().get(BelfryRealm.ROLES))
        .containsExactly("belfry-viewer");
    try (Statement s = keepOpen.createStatement();
        var row = s.executeQuery("SELECT last_used_at FROM belfry_api_token WHERE id = 't1'")) {
      row.next();
      assertThat(row.getTimestamp(1)).as("last use recorded").isNotNull();
    }
    assertThat(realm.getRealmIdentity(new BearerTokenEvidence(token + "x")).exists()).isFalse();

    execute("DELETE FROM belfry_api_token WHERE id = 't1'");
    assertThat(realm.getRealmIdentity(new BearerTokenEvidence(token)).exists())
        .as("revoked: refused on the next request")
        .isFalse();
  }

  @Test
  void bearerToken_rememberedWhileRevocationsAreHeard_forgottenWhenOneIs() throws Exception {
    String token = foundWhileListening_thenDeletedFromTheTableOnly();
    assertThat(realm.getRealmIdentity(new BearerTokenEvidence(token)).exists())
        .as("remembered: the table was not asked again")
        .isTrue();

    known.forget(TokenRows.hash(token));
    assertThat(realm.getRealmIdentity(new BearerTokenEvidence(token)).exists())
        .as("revoked: refused on the next request")
        .isFalse();
  }

  @Test
  void bearerToken_remembered_forAtMostTheTtl_andNotAtAllWithoutAListener() throws Exception {
    String token = foundWhileListening_thenDeletedFromTheTableOnly();

    nanos.addAndGet(BelfryRealm.DEFAULT_TOKEN_TTL.toNanos());
    assertThat(realm.getRealmIdentity(new BearerTokenEvidence(token)).exists())
        .as("past the ttl the table is asked again")
        .isFalse();

    saveToken("t2", "ci2", token);
    known.listening(false);
    assertThat(realm.getRealmIdentity(new BearerTokenEvidence(token)).exists()).isTrue();
    execute("DELETE FROM belfry_api_token WHERE id = 't2'");
    assertThat(realm.getRealmIdentity(new BearerTokenEvidence(token)).exists())
        .as("with no listener nothing is remembered")
        .isFalse();
  }

  @Test
  void bearerToken_expired_refusedLikeAnUnknownOne() throws Exception {
    String live = "bft_" + UUID.randomUUID();
    String expired = "bft_" + UUID.randomUUID();
    execute(
        "INSERT INTO belfry_api_token (id, name, token_hash, roles, created_at, expires_at) VALUES"
            + " ('t1', 'live', '"
            + TokenRows.hash(live)
            + "', 'belfry-viewer', CURRENT_TIMESTAMP, DATEADD('HOUR', 1, CURRENT_TIMESTAMP)),"
            + " ('t2', 'expired', '"
            + TokenRows.hash(expired)
            + "', 'belfry-viewer', CURRENT_TIMESTAMP, DATEADD('SECOND', -1, CURRENT_TIMESTAMP))");

    assertThat(realm.getRealmIdentity(new BearerTokenEvidence(live)).exists()).isTrue();
    assertThat(realm.getRealmIdentity(new BearerTokenEvidence(expired)).exists())
        .as("past its expiry: refused on every request")
        .isFalse();
  }

  /**
   * A token (row t1) found once while revocations are heard, then deleted from the table without an
   * announcement, as a row deleted by hand would be.
   */
  private String foundWhileListening_thenDeletedFromTheTableOnly() throws Exception {
    String token = "bft_" + UUID.randomUUID();
    saveToken("t1", "ci", token);
    known.listening(true);
    assertThat(realm.getRealmIdentity(new BearerTokenEvidence(token)).exists()).isTrue();
    execute("DELETE FROM belfry_api_token WHERE id = 't1'");
    return token;
  }

  private void saveToken(String id, String name, String token) throws SQLException {
    execute(
        "INSERT INTO belfry_api_token (id, name, token_hash, roles, created_at) VALUES ('"
            + id
            + "', '"
            + name
            + "', '"
            + TokenRows.hash(token)
            + "', 'belfry-viewer', CURRENT_TIMESTAMP)");
  }

  private boolean login(String name, String password) throws Exception {
    RealmIdentity identity = realm.getRealmIdentity(new NamePrincipal(name));
    return identity.exists()
        && identity.verifyEvidence(new PasswordGuessEvidence(password.toCharArray()));
  }

  private void saveUser(String name, String password, String... roles)
      throws SQLException, GeneralSecurityException {
    byte[] salt = new byte[BCryptPassword.BCRYPT_SALT_SIZE];
    new SecureRandom().nextBytes(salt);
    BCryptPassword hashed =
        (BCryptPassword)
            PasswordFactory.getInstance(
                    BCryptPassword.ALGORITHM_BCRYPT, WildFlyElytronPasswordProvider.getInstance())
                .generatePassword(
                    new EncryptablePasswordSpec(
                        password.toCharArray(), new IteratedSaltedPasswordAlgorithmSpec(4, salt)));
    try (PreparedStatement user =
        keepOpen.prepareStatement(
            "INSERT INTO belfry_user (name, password_hash, password_salt, iterations, created_at)"
                + " VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)")) {
      user.setString(1, name);
      user.setString(2, Base64.getEncoder().encodeToString(hashed.getHash()));
      user.setString(3, Base64.getEncoder().encodeToString(hashed.getSalt()));
      user.setInt(4, hashed.getIterationCount());
      user.executeUpdate();
    }
    for (String role : roles) {
      execute("INSERT INTO belfry_user_role (name, role) VALUES ('" + name + "', '" + role + "')");
    }
  }

  private void execute(String sql) throws SQLException {
    try (Statement statement = keepOpen.createStatement()) {
      statement.execute(sql);
    }
  }
}
