package io.belfry.reminders.model;

import static io.belfry.reminders.api.Quoting.quote;

import java.util.Objects;

/**
 * The one identity of a reminder: its namespace and its key. Used as the cache key (through {@link
 * #cacheKey()}), in REST paths and in events, so that every part of Belfry names a reminder the
 * same way.
 *
 * <p>The cache key is {@code namespace + ':' + key}. It is unambiguous and reversible because a
 * namespace can never contain {@code ':'}: the first colon always ends the namespace, and the key
 * may contain further colons freely.
 */
public record ReminderId(String namespace, String key) {

  public static final int MAX_NAMESPACE_LENGTH = 128;
  public static final int MAX_KEY_LENGTH = 512;

  /** Ends the namespace in a cache key; outside the namespace alphabet, so never ambiguous. */
  static final char SEPARATOR = ':';

  public ReminderId {
    requireValidNamespace(namespace);
    requireValidKey(key);
  }

  public static ReminderId of(String namespace, String key) {
    return new ReminderId(namespace, key);
  }

  /** The String under which this reminder is stored in the reminders cache. */
  public String cacheKey() {
    return namespace + SEPARATOR + key;
  }

  /** The inverse of {@link #cacheKey()}; rejects strings that no valid id encodes to. */
  public static ReminderId fromCacheKey(String cacheKey) {
    Objects.requireNonNull(cacheKey, "cacheKey");
    int separator = cacheKey.indexOf(SEPARATOR);
    if (separator < 0) {
      throw new IllegalArgumentException("Not a reminder cache key (no ':'): " + cacheKey);
    }
    return new ReminderId(
        canonicalNamespace(cacheKey.substring(0, separator)), cacheKey.substring(separator + 1));
  }

  /**
   * The namespace part of a cache key, without building the id (shared as {@link #fromCacheKey}
   * shares it); rejects a string with no separator.
   */
  public static String namespaceOf(String cacheKey) {
    int separator = cacheKey.indexOf(SEPARATOR);
    if (separator <= 0) {
      throw new IllegalArgumentException("Not a reminder cache key: " + cacheKey);
    }
    return canonicalNamespace(cacheKey.substring(0, separator));
  }

  /**
   * One String instance per namespace: a node holds up to millions of ids (time index, listings)
   * but only a handful of namespaces, so sharing them saves ~48 bytes per id. Bounded so that a
   * flood of namespaces cannot grow it without limit; past the bound, copies are kept as they are.
   */
  private static String canonicalNamespace(String namespace) {
    String canonical = NAMESPACES.get(namespace);
    if (canonical != null) {
      return canonical;
    }
    if (NAMESPACES.size() >= MAX_CANONICAL_NAMESPACES) {
      return namespace;
    }
    String previous = NAMESPACES.putIfAbsent(namespace, namespace);
    return previous == null ? namespace : previous;
  }

  private static final int MAX_CANONICAL_NAMESPACES = 10_000;

  private static final java.util.concurrent.ConcurrentMap<String, String> NAMESPACES =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The prefix every cache key of {@code namespace} starts with, and no key of another namespace
   * does (the separator ends the namespace, so "a" does not match "ab:…").
   */
  public static String cacheKeyPrefix(String namespace) {
    requireValidNamespace(namespace);
    return namespace + SEPARATOR;
  }

  /**
   * Whether {@code namespace} is 1–128 characters of {@code [A-Za-z0-9._-]} starting with a letter
   * or digit (so that it is never {@code .} or {@code ..}, which URLs cannot name).
   */
  public static boolean isValidNamespace(String namespace) {
    if (namespace == null || namespace.isEmpty() || namespace.length() > MAX_NAMESPACE_LENGTH) {
      return false;
    }
    for (int i = 0; i < namespace.length(); i++) {
      char c = namespace.charAt(i);
      boolean allowed =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '_'
              || c == '-';
      if (!allowed || (i == 0 && (c == '.' || c == '_' || c == '-'))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code key} is 1–512 UTF-16 characters (as {@code @Size} counts them) of printable
   * text: no control characters, and no unpaired surrogates, which would not survive UTF-8.
   */
  public static boolean isValidKey(String key) {
    if (key == null || key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
      return false;
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isISOControl(c)) {
        return false;
      }
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= key.length() || !Character.isLowSurrogate(key.charAt(i + 1))) {
          return false;
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  private static void requireValidNamespace(String namespace) {
    if (!isValidNamespace(namespace)) {
      throw new IllegalArgumentException(
          "namespace must be 1-128 characters of [A-Za-z0-9._-], starting with a letter or digit, was: "
              + quote(namespace));
    }
  }

  private static void requireValidKey(String key) {
    if (!isValidKey(key)) {
      throw new IllegalArgumentException(
          "key must be 1-512 printable characters (no control characters), was: " + quote(key));
    }
  }
}
