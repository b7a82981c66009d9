package io.belfry.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The {@code Authorization} header of the benchmarks that call a running node's REST API: HTTP
 * Basic from {@code USER:PASSWORD}, or an API token from {@code bearer:TOKEN}.
 */
final class RestAuth {

  private RestAuth() {}

  /** The header's value for {@code USER:PASSWORD} or {@code bearer:TOKEN}. */
  static String header(String credentials) {
    return credentials.startsWith("bearer:")
        ? "Bearer " + credentials.substring("bearer:".length())
        : "Basic "
            + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
  }
}
