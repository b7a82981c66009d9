package io.belfry.reminders.sink;

import java.net.URI;

/**
 * How a sink's target appears in errors ({@code lastError}, audit {@code detail}, the log): its
 * origin only, scheme, host and port. A webhook URL's path or query may carry a token, and viewers
 * see errors but not sink configurations.
 */
public final class SinkTargets {

  private SinkTargets() {}

  /** {@code https://hooks.example.com:8443} of {@code https://hooks.example.com:8443/t/abc?k=1}. */
  public static String origin(String url) {
    try {
      URI uri = URI.create(url);
      if (uri.getScheme() == null || uri.getHost() == null) {
        return "(a URL that does not parse)";
      }
      return uri.getScheme()
          + "://"
          + uri.getHost()
          + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
    } catch (IllegalArgumentException e) {
      return "(a URL that does not parse)";
    }
  }
}
