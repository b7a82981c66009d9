package io.belfry.reminders.api;

/**
 * The cluster cannot serve this reminder now: this node is cut off from the majority of the cluster
 * (a partition, where reads and writes are refused), or the cluster is changing members and did not
 * settle within the engine's patience. Nothing is acknowledged: a change may or may not have been
 * applied, so read the reminder again before retrying a cancel. REST answers {@code 503} with
 * {@code Retry-After}.
 */
public class RemindersUnavailableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String namespace;
  private final String key;

  public RemindersUnavailableException(String namespace, String key, Throwable cause) {
    super(
        "the cluster cannot serve "
            + Quoting.quote(key)
            + " in namespace "
            + Quoting.quote(namespace)
            + " now (this node is cut off from the majority, or members are changing); retry"
            + " later",
        cause);
    this.namespace = namespace;
    this.key = key;
  }

  public String getNamespace() {
    return namespace;
  }

  public String getKey() {
    return key;
  }
}
