package io.belfry.realm;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Passwords this node has verified with bcrypt recently, so that a client sending the same Basic
 * credentials on every request pays bcrypt's cost (about 90 ms at cost 10) once per {@code ttl}
 * rather than every time.
 *
 * <p>What makes this safe:
 *
 * <ul>
 *   <li>Only a password that bcrypt accepted is ever remembered; a wrong guess always costs the
 *       full hash, so guessing is exactly as slow as without the cache.
 *   <li>An entry is keyed by the user's name, the stored bcrypt hash read from the database on this
 *       very request, and an HMAC of the password under a random key of this process. A changed
 *       password (new hash) or a removed user (no row) misses at once, on every node, with no
 *       message between nodes; roles are read afresh on every request too.
 *   <li>Neither the password nor a fast unkeyed hash of it is kept in memory.
 * </ul>
 */
final class VerifiedPasswords {

  /** Bound on remembered credentials; past it the cache starts over (an attack costs bcrypt). */
  static final int MAX_ENTRIES = 10_000;

  private final byte[] key = new byte[32];
  private final long ttlNanos;
  private final LongSupplier nanoTime;
  private final Map<String, Long> expiries = new ConcurrentHashMap<>();

  VerifiedPasswords(long ttlNanos, LongSupplier nanoTime) {
    this.ttlNanos = ttlNanos;
    this.nanoTime = nanoTime;
    new SecureRandom().nextBytes(key);
  }

  /** Whether bcrypt accepted {@code guess} for this user and stored hash within the ttl. */
  boolean verifiedRecently(String name, String storedHash, char[] guess) {
    if (ttlNanos <= 0) {
      return false;
    }
    String entry = entry(name, storedHash, guess);
    Long expiry = expiries.get(entry);
    if (expiry == null) {
      return false;
    }
    if (nanoTime.getAsLong() - expiry >= 0) {
      expiries.remove(entry, expiry);
      return false;
    }
    return true;
  }

  /** Remembers that bcrypt accepted {@code guess}: call only after a successful verification. */
  void remember(String name, String storedHash, char[] guess) {
    if (ttlNanos <= 0) {
      return;
    }
    if (expiries.size() >= MAX_ENTRIES) {
      expiries.clear();
    }
    expiries.put(entry(name, storedHash, guess), nanoTime.getAsLong() + ttlNanos);
  }

  private String entry(String name, String storedHash, char[] guess) {
    byte[] password = new String(guess).getBytes(StandardCharsets.UTF_8);
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return name
          + '\u0000'
          + storedHash
          + '\u0000'
          + Base64.getEncoder().encodeToString(mac.doFinal(password));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    } finally {
      Arrays.fill(password, (byte) 0);
    }
  }
}
