package io.belfry.reminders.sink;

import java.time.Instant;
import java.util.Optional;

/**
 * Which sinks each namespace has: read on every fire, edited by the REST API and the console.
 * Implemented by the audit module on {@code BelfryDS}, so that one configuration serves the whole
 * cluster and changes at run time; the engine finds it through CDI ({@code
 * Instance<SinkDirectory>}), or, in a deployment without it, reads the node's through {@link
 * io.belfry.reminders.archive.NodeArchive}.
 */
public interface SinkDirectory {

  /** A namespace's sink as stored, with who changed it last. */
  record StoredSink(String namespace, SinkSettings settings, Instant updatedAt, String updatedBy) {}

  /**
   * The sink of {@code namespace} for a fire. May answer from a copy a few seconds old, so that
   * fires do not query the store each time; a change made on another node is seen within that
   * delay.
   *
   * @throws SinkException if the configuration cannot be read and no earlier copy is at hand
   */
  Optional<SinkSettings> forNamespace(String namespace);

  /** The sink of {@code namespace} as stored now (no cached copy), for the API and the console. */
  Optional<StoredSink> read(String namespace);

  /**
   * Creates or replaces the sink of {@code namespace}. The caller has validated {@code settings}.
   *
   * @return whether it was created (rather than replaced)
   */
  boolean save(String namespace, SinkSettings settings, String principal);

  /** Removes the sink of {@code namespace}; returns whether there was one. */
  boolean remove(String namespace);
}
