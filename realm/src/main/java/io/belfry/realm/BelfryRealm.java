package io.belfry.realm;

import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.spec.AlgorithmParameterSpec;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.jboss.logging.Logger;
import org.wildfly.security.auth.SupportLevel;
import org.wildfly.security.auth.server.RealmIdentity;
import org.wildfly.security.auth.server.RealmUnavailableException;
import org.wildfly.security.auth.server.SecurityRealm;
import org.wildfly.security.authz.AuthorizationIdentity;
import org.wildfly.security.authz.MapAttributes;
import org.wildfly.security.credential.Credential;
import org.wildfly.security.evidence.Evidence;
import org.wildfly.security.evidence.PasswordGuessEvidence;
import org.wildfly.security.password.PasswordFactory;
import org.wildfly.security.password.WildFlyElytronPasswordProvider;
import org.wildfly.security.password.interfaces.BCryptPassword;
import org.wildfly.security.password.spec.IteratedSaltedHashPasswordSpec;

/**
 * The users of {@code belfry.war}, for Elytron: a {@code custom-realm} in module {@code
 * io.belfry.realm} (server-config's {@code configure-security.cli}). It reads the same rows as the
 * jdbc-realm it replaces, on every request, and verifies passwords with the same bcrypt; what it
 * adds is {@link VerifiedPasswords}: a password bcrypt accepted is not hashed again for {@code
 * cache-ttl}. With HTTP Basic every request carries the password, and bcrypt at cost 10 held one
 * client to about 11 requests per second.
 *
 * <p>Configuration (the custom-realm's {@code configuration} map):
 *
 * <ul>
 *   <li>{@code data-source}: JNDI name of the users' datasource (default {@value #DEFAULT_SOURCE})
 *   <li>{@code cache-ttl}: ISO-8601 duration a verified password is remembered (default {@code
 *       PT5M}; {@code PT0S} turns the cache off)
 * </ul>
 */
public class BelfryRealm implements SecurityRealm {

  private static final Logger LOG = Logger.getLogger(BelfryRealm.class);

  static final String DEFAULT_SOURCE = "java:jboss/datasources/BelfryDS";
  static final Duration DEFAULT_TTL = Duration.ofMinutes(5);

  /** The attribute the security domain's role decoder reads (simple-role-decoder belfry-roles). */
  static final String ROLES = "Roles";

  private String dataSourceName = DEFAULT_SOURCE;
  private volatile UserRows rows;

  /** How many passwords bcrypt checked: what the cache saves shows here (and in the tests). */
  final AtomicLong bcryptRuns = new AtomicLong();

  private VerifiedPasswords verified =
      new VerifiedPasswords(DEFAULT_TTL.toNanos(), System::nanoTime);

  /** For Elytron, which then calls {@link #initialize}. */
  public BelfryRealm() {}

  /** On a given datasource, outside the server (unit tests). */
  BelfryRealm(DataSource dataSource, VerifiedPasswords verified) {
    this.rows = new UserRows(dataSource);
    this.verified = verified;
  }

  /** Called by Elytron with the custom-realm's {@code configuration}. */
  public void initialize(Map<String, String> configuration) {
    dataSourceName = configuration.getOrDefault("data-source", DEFAULT_SOURCE);
    Duration ttl = Duration.parse(configuration.getOrDefault("cache-ttl", DEFAULT_TTL.toString()));
    verified = new VerifiedPasswords(ttl.toNanos(), System::nanoTime);
    LOG.debugf("BELFRY-0610 Realm on %s, verified passwords kept %s", dataSourceName, ttl);
  }

  @Override
  public SupportLevel getCredentialAcquireSupport(
      Class<? extends Credential> credentialType,
      String algorithmName,
      AlgorithmParameterSpec parameterSpec) {
    return SupportLevel.UNSUPPORTED;
  }

  @Override
  public SupportLevel getEvidenceVerifySupport(
      Class<? extends Evidence> evidenceType, String algorithmName) {
    return PasswordGuessEvidence.class.isAssignableFrom(evidenceType)
        ? SupportLevel.POSSIBLY_SUPPORTED
        : SupportLevel.UNSUPPORTED;
  }

  @Override
  public RealmIdentity getRealmIdentity(Principal principal) throws RealmUnavailableException {
    if (principal == null) {
      return RealmIdentity.NON_EXISTENT;
    }
    Optional<StoredUser> user;
    try {
      user = rows().find(principal.getName());
    } catch (SQLException e) {
      throw new RealmUnavailableException("the user table cannot be read: " + e.getMessage(), e);
    }
    return user.<RealmIdentity>map(found -> new Identity(principal, found))
        .orElse(RealmIdentity.NON_EXISTENT);
  }

  /** Whether {@code guess} is the user's password: the cache first, bcrypt otherwise. */
  boolean verify(StoredUser user, char[] guess) throws RealmUnavailableException {
    if (verified.verifiedRecently(user.name(), user.hash(), guess)) {
      return true;
    }
    bcryptRuns.incrementAndGet();
    boolean valid = bcrypt(user, guess);
    if (valid) {
      verified.remember(user.name(), user.hash(), guess);
    }
    return valid;
  }

  private static boolean bcrypt(StoredUser user, char[] guess) throws RealmUnavailableException {
    try {
      Base64.Decoder base64 = Base64.getDecoder();
      PasswordFactory factory =
          PasswordFactory.getInstance(
              BCryptPassword.ALGORITHM_BCRYPT, WildFlyElytronPasswordProvider.getInstance());
      return factory.verify(
          factory.generatePassword(
              new IteratedSaltedHashPasswordSpec(
                  base64.decode(user.hash()), base64.decode(user.salt()), user.cost())),
          guess);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new RealmUnavailableException("the stored hash of a user cannot be read", e);
    }
  }

  private UserRows rows() throws RealmUnavailableException {
    UserRows found = rows;
    if (found == null) {
      // looked up at first use: the realm starts before the datasource is bound
      try {
        found = new UserRows((DataSource) new InitialContext().lookup(dataSourceName));
      } catch (NamingException e) {
        throw new RealmUnavailableException(dataSourceName + " is not available", e);
      }
      rows = found;
    }
    return found;
  }

  /** One user as read for one authentication. */
  private final class Identity implements RealmIdentity {

    private final Principal principal;
    private final StoredUser user;

    Identity(Principal principal, StoredUser user) {
      this.principal = principal;
      this.user = user;
    }

    @Override
    public Principal getRealmIdentityPrincipal() {
      return principal;
    }

    @Override
    public SupportLevel getCredentialAcquireSupport(
        Class<? extends Credential> credentialType,
        String algorithmName,
        AlgorithmParameterSpec parameterSpec) {
      return SupportLevel.UNSUPPORTED;
    }

    @Override
    public <C extends Credential> C getCredential(Class<C> credentialType) {
      return null;
    }

    @Override
    public SupportLevel getEvidenceVerifySupport(
        Class<? extends Evidence> evidenceType, String algorithmName) {
      return BelfryRealm.this.getEvidenceVerifySupport(evidenceType, algorithmName);
    }

    @Override
    public boolean verifyEvidence(Evidence evidence) throws RealmUnavailableException {
      return evidence instanceof PasswordGuessEvidence guess && verify(user, guess.getGuess());
    }

    @Override
    public boolean exists() {
      return true;
    }

    @Override
    public AuthorizationIdentity getAuthorizationIdentity() {
      MapAttributes attributes = new MapAttributes();
      attributes.addAll(ROLES, user.roles());
      return AuthorizationIdentity.basicIdentity(attributes);
    }
  }
}
