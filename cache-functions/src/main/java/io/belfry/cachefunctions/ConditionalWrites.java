package io.belfry.cachefunctions;

import java.util.Objects;

/**
 * The text of {@link ConditionalWrite}'s arguments and results, in one place for both sides: the
 * engine that builds the arguments and reads the results, and the function that does the reverse on
 * every owner. Plain Strings, which every marshaller carries; lengths are written out because
 * values are arbitrary text (every char from U+0000 to U+00FF).
 *
 * <ul>
 *   <li>argument: {@code "+" next} (write if absent) or {@code "=" length ":" expected next} (write
 *       if the entry is {@code expected});
 *   <li>result: {@code length ":" key} then {@code "W"} (written), {@code "A"} (lost, the entry is
 *       absent) or {@code "V" current} (lost to the value {@code current}).
 * </ul>
 */
public final class ConditionalWrites {

  private ConditionalWrites() {}

  /** The argument of a write of {@code next} over exactly {@code expected}. */
  public static String replacing(String expected, String next) {
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(next, "next");
    return "=" + expected.length() + ':' + expected + next;
  }

  /** The argument of a write of {@code next} where there is no entry. */
  public static String ifAbsent(String next) {
    return "+" + Objects.requireNonNull(next, "next");
  }

  /** The value {@code argument} writes. */
  static String next(String argument) {
    if (argument.charAt(0) == '+') {
      return argument.substring(1);
    }
    int colon = argument.indexOf(':');
    int length = Integer.parseInt(argument, 1, colon, 10);
    return argument.substring(colon + 1 + length);
  }

  /** Whether {@code argument} expects what the entry holds ({@code current}, null if absent). */
  static boolean expects(String argument, String current) {
    if (argument.charAt(0) == '+') {
      return current == null;
    }
    if (current == null) {
      return false;
    }
    int colon = argument.indexOf(':');
    int length = Integer.parseInt(argument, 1, colon, 10);
    return length == current.length() && argument.startsWith(current, colon + 1);
  }

  static String result(String key, boolean won, String current) {
    String named = key.length() + ":" + key;
    if (won) {
      return named + 'W';
    }
    return current == null ? named + 'A' : named + 'V' + current;
  }

  /**
   * One key's result, read back.
   *
   * @param key the key written
   * @param won whether the entry now holds the value written
   * @param current what the entry holds instead when the write lost (null if absent or won)
   */
  public record Outcome(String key, boolean won, String current) {

    /** Reads a result of {@link ConditionalWrite}. */
    public static Outcome of(String result) {
      int colon = result.indexOf(':');
      int length = Integer.parseInt(result, 0, colon, 10);
      int end = colon + 1 + length;
      String key = result.substring(colon + 1, end);
      return switch (result.charAt(end)) {
        case 'W' -> new Outcome(key, true, null);
        case 'A' -> new Outcome(key, false, null);
        case 'V' -> new Outcome(key, false, result.substring(end + 1));
        default ->
            throw new IllegalArgumentException("not a result of ConditionalWrite: " + result);
      };
    }
  }
}
