package io.belfry.reminders.model;

import jakarta.json.spi.JsonProvider;

/**
 * The one JSON-P provider of this deployment. Every static {@code jakarta.json.Json.createX(…)}
 * looks the provider up again with a {@code ServiceLoader}, which on WildFly walks the deployment's
 * archives: a fifth of the CPU of a batch {@code POST} went there (JFR, 2026-11-26). Use {@code
 * JSON.createObjectBuilder()} and the like instead; the provider is thread-safe.
 */
public final class JsonFactory {

  public static final JsonProvider JSON = JsonProvider.provider();

  private JsonFactory() {}
}
