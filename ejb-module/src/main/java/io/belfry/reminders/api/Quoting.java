package io.belfry.reminders.api;

/** Shows user text in exception messages and logs without letting it flood or forge lines. */
public final class Quoting {

  private static final int MAX_SHOWN = 64;

  private Quoting() {}

  /** {@code text} cut to 64 characters, control characters escaped, in single quotes. */
  public static String quote(String text) {
    if (text == null) {
      return "null";
    }
    String shown = text.length() > MAX_SHOWN ? text.substring(0, MAX_SHOWN) + "…" : text;
    StringBuilder out = new StringBuilder(shown.length() + 2).append('\'');
    shown
        .codePoints()
        .forEach(
            cp -> {
              if (Character.isISOControl(cp)) {
                out.append(String.format("\\u%04x", cp));
              } else {
                out.appendCodePoint(cp);
              }
            });
    return out.append('\'').toString();
  }
}
