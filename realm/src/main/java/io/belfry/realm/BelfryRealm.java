package io.belfry.realm;

import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.spec.AlgorithmParameterSpec;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.jboss.logging.Logger;
import org.wildfly.security.auth.SupportLevel;
import org.wildfly.security.auth.principal.NamePrincipal;
import org.wildfly.security.auth.server.RealmIdentity;
import org.wildfly.security.auth.server.RealmUnavailableException;
import org.wildfly.security.auth.server.SecurityRealm;
import org.wildfly.security.credential.Credential;
import org.wildfly.security.evidence.BearerTokenEvidence;
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
 *   <li>{@code token-cache-ttl}: how long an API token found in the table is remembered at most
 *       (default {@code PT1M}; {@code PT0S} queries the table on every request). Revocations reach
 *       every node at once regardless ({@link KnownTokens}).
 * </ul>
 */
public class BelfryRealm implements SecurityRealm {

  private static final Logger LOG = Logger.getLogger(BelfryRealm.class);

  static final String DEFAULT_SOURCE = "java:jboss/datasources/BelfryDS";
  static final Duration DEFAULT_TTL = Duration.ofMinutes(5);
  static final Duration DEFAULT_TOKEN_TTL = Duration.ofMinutes(1);

  /** The attribute the security domain's role decoder reads (simple-role-decoder belfry-roles). */
  static final String ROLES = "Roles";

  /** The principal of a token's requests: {@code token:} and the token's name. */
  static final String TOKEN_PRINCIPAL_PREFIX = "token:";

  private String dataSourceName = DEFAULT_SOURCE;
  private volatile UserRows rows;
  private volatile TokenRows tokens;

  /** How many passwords bcrypt checked: what the cache saves shows here (and in the tests). */
  final AtomicLong bcryptRuns = new AtomicLong();

  private VerifiedPasswords verified =
      new VerifiedPasswords(DEFAULT_TTL.toNanos(), System::nanoTime);

  private KnownTokens known = KnownTokens.NODE;

  /** For Elytron, which then calls {@link #initialize}. */
  public BelfryRealm() {}

  /** On a given datasource, outside the server (unit tests). */
  BelfryRealm(DataSource dataSource, VerifiedPasswords verified, KnownTokens known) {
    this.rows = new UserRows(dataSource);
    this.tokens = new TokenRows(dataSource);
    this.verified = verified;
    this.known = known;
  }

  /** Called by Elytron with the custom-realm's {@code configuration}. */
  public void initialize(Map<String, String> configuration) {
    dataSourceName = configuration.getOrDefault("data-source", DEFAULT_SOURCE);
    Duration ttl = Duration.parse(configuration.getOrDefault("cache-ttl", DEFAULT_TTL.toString()));
    verified = new VerifiedPasswords(ttl.toNanos(), System::nanoTime);
    Duration tokenTtl =
        Duration.parse(configuration.getOrDefault("token-cache-ttl", DEFAULT_TOKEN_TTL.toString()));
    known.ttlNanos(tokenTtl.toNanos());
    LOG.debugf(
        "BELFRY-0610 Realm on %s, verified passwords kept %s, tokens %s",
        dataSourceName, ttl, tokenTtl);
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
            || BearerTokenEvidence.class.isAssignableFrom(evidenceType)
        ? SupportLevel.POSSIBLY_SUPPORTED
        : SupportLevel.UNSUPPORTED;
  }

  /**
   * A bearer token names its identity by itself: the row whose hash it matches, with the token's
   * roles, as principal {@code token:<name>}. Other evidence names a user by its principal.
   */
  @Override
  public RealmIdentity getRealmIdentity(Evidence evidence) throws RealmUnavailableException {
    if (evidence instanceof BearerTokenEvidence bearer) {
      try {
        return findToken(bearer.getToken())
            .<RealmIdentity>map(TokenIdentity::new)
            .orElse(RealmIdentity.NON_EXISTENT);
      } catch (SQLException e) {
        throw new RealmUnavailableException("the token table cannot be read: " + e.getMessage(), e);
      }
    }
    return getRealmIdentity(evidence.getPrincipal());
  }

  /** The token from this node's memory if it is there, from the table otherwise. */
  private Optional<TokenRows.StoredToken> findToken(String token)
      throws SQLException, RealmUnavailableException {
    String hash = TokenRows.hash(token);
    Optional<TokenRows.StoredToken> found = known.recall(hash, Instant.now());
    if (found.isEmpty()) {
      long readUnder = known.generation();
      found = tokens().find(hash);
      found.ifPresent(stored -> known.remember(hash, stored, readUnder));
    }
    if (found.isPresent()) {
      tokens().touch(found.get().id());
    }
    return found;
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
    } else {
      // WildFly's brute-force wrapper around this realm disables the user after 10 in a row
      LOG.infof("BELFRY-0611 Wrong password for user %s", user.name());
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
      found = new UserRows(dataSource());
      rows = found;
    }
    return found;
  }

  private TokenRows tokens() throws RealmUnavailableException {
    TokenRows found = tokens;
    if (found == null) {
      found = new TokenRows(dataSource());
      tokens = found;
    }
    return found;
  }

  /** Looked up at first use: the realm starts before the datasource is bound. */
  private DataSource dataSource() throws RealmUnavailableException {
    try {
      return (DataSource) new InitialContext().lookup(dataSourceName);
    } catch (NamingException e) {
      throw new RealmUnavailableException(dataSourceName + " is not available", e);
    }
  }

  /** An API token, found by the token itself: nothing more to verify. */
  private static final class TokenIdentity extends FoundIdentity {

    TokenIdentity(TokenRows.StoredToken token) {
      super(new NamePrincipal(TOKEN_PRINCIPAL_PREFIX + token.name()), token.roles());
    }

    @Override
    public SupportLevel getEvidenceVerifySupport(
        Class<? extends Evidence> evidenceType, String algorithmName) {
      return BearerTokenEvidence.class.isAssignableFrom(evidenceType)
          ? SupportLevel.SUPPORTED
          : SupportLevel.UNSUPPORTED;
    }

    @Override
    public boolean verifyEvidence(Evidence evidence) {
      // found by this very token's hash; a password never authenticates a token's identity
      return evidence instanceof BearerTokenEvidence;
    }
  }

  /** One user as read for one authentication. */
  private final class Identity extends FoundIdentity {

    private final StoredUser user;

    Identity(Principal principal, StoredUser user) {
      super(principal, user.roles());
      this.user = user;
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
  }
}
