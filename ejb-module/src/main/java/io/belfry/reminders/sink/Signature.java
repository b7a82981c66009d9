package io.belfry.reminders.sink;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The webhook signature: {@code sha256=} followed by the lowercase hex HMAC-SHA256 of the exact
 * body bytes, keyed with the UTF-8 bytes of the namespace's secret (the scheme of GitHub's {@code
 * X-Hub-Signature-256}). A receiver computes the same over the raw body it read, before parsing it,
 * and compares in constant time ({@link #verify}).
 */
public final class Signature {

  /** The prefix that names the algorithm, so that another can be added without ambiguity. */
  public static final String PREFIX = "sha256=";

  private static final String ALGORITHM = "HmacSHA256";

  private Signature() {}

  public static String sign(String secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
      return PREFIX + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      // every Java runtime ships HmacSHA256, and any non-empty key is valid for it
      throw new IllegalStateException("HMAC-SHA256 unavailable", e);
    }
  }

  /** Whether {@code header} is the signature of {@code body} under {@code secret}. */
  public static boolean verify(String secret, byte[] body, String header) {
    if (header == null) {
      return false;
    }
    return MessageDigest.isEqual(
        sign(secret, body).getBytes(StandardCharsets.US_ASCII),
        header.trim().getBytes(StandardCharsets.US_ASCII));
  }
}
