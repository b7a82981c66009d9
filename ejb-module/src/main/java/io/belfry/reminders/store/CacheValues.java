package io.belfry.reminders.store;

import java.nio.charset.StandardCharsets;

/**
 * How encoded reminders sit in the cache: as Strings, one char per byte (ISO-8859-1), never as
 * {@code byte[]}.
 *
 * <p>Why: firing and setting commit with {@code replace(key, expected, next)} and {@code
 * remove(key, expected)}, which the cache evaluates with {@code equals} on the primary owner. There
 * the expected value is always a copy (it was marshalled from another node, or read earlier), and
 * {@code byte[]} equality is identity, so in WildFly such a replace never matches (shown by {@code
 * ReminderCacheIT}). {@code String} compares by content, is marshalled by PROTOSTREAM without any
 * deployment class, and with compact strings costs one byte per char in memory. The mapping is
 * lossless: every byte 0–255 is exactly one ISO-8859-1 char.
 */
public final class CacheValues {

  private CacheValues() {}

  /** The cache form of encoded bytes. */
  public static String toCache(byte[] encoded) {
    return new String(encoded, StandardCharsets.ISO_8859_1);
  }

  /** The encoded bytes of a cache value. */
  public static byte[] fromCache(String value) {
    return value.getBytes(StandardCharsets.ISO_8859_1);
  }
}
