package io.belfry.web.security;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import org.wildfly.security.password.PasswordFactory;
import org.wildfly.security.password.WildFlyElytronPasswordProvider;
import org.wildfly.security.password.interfaces.BCryptPassword;
import org.wildfly.security.password.spec.EncryptablePasswordSpec;
import org.wildfly.security.password.spec.IteratedSaltedPasswordAlgorithmSpec;

/**
 * bcrypt hashes made with the server's own Elytron, so that the realm ({@code io.belfry.realm})
 * verifies exactly what was stored: hash and salt base64, cost as the iteration count.
 */
public final class PasswordHashing {

  /** System property: the bcrypt cost of new hashes, 4 to 31; default {@value #DEFAULT_COST}. */
  public static final String COST_PROPERTY = "belfry.password-cost";

  /**
   * 2^10 rounds: OWASP's floor for bcrypt, 60–110 ms of CPU per verification on the 2-core box; the
   * realm pays it once per client, node and cache ttl (docs/security.md).
   */
  public static final int DEFAULT_COST = 10;

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final WildFlyElytronPasswordProvider PROVIDER =
      WildFlyElytronPasswordProvider.getInstance();

  /** What the {@code belfry_user} row stores. */
  public record Hashed(String hash, String salt, int iterations) {}

  private PasswordHashing() {}

  public static Hashed hash(String password) {
    byte[] salt = new byte[BCryptPassword.BCRYPT_SALT_SIZE];
    RANDOM.nextBytes(salt);
    try {
      PasswordFactory factory =
          PasswordFactory.getInstance(BCryptPassword.ALGORITHM_BCRYPT, PROVIDER);
      BCryptPassword hashed =
          (BCryptPassword)
              factory.generatePassword(
                  new EncryptablePasswordSpec(
                      password.toCharArray(),
                      new IteratedSaltedPasswordAlgorithmSpec(cost(), salt)));
      Base64.Encoder base64 = Base64.getEncoder();
      return new Hashed(
          base64.encodeToString(hashed.getHash()),
          base64.encodeToString(hashed.getSalt()),
          hashed.getIterationCount());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("bcrypt is not available from Elytron", e);
    }
  }

  static int cost() {
    Integer configured = Integer.getInteger(COST_PROPERTY);
    return configured == null || configured < 4 || configured > 31 ? DEFAULT_COST : configured;
  }

  /**
   * A random password for the first admin: 20 characters of an unambiguous alphabet (~114 bits).
   */
  public static String randomPassword() {
    return randomText(20);
  }

  /** {@code length} random characters of an unambiguous alphabet (~5.8 bits each). */
  static String randomText(int length) {
    String alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
    }
    return text.toString();
  }
}
