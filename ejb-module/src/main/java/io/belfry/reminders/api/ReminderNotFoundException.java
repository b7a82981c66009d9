package io.belfry.reminders.api;

/**
 * No live reminder has this namespace and key: it never existed, was cancelled, or its last
 * occurrence fired. Thrown by {@link Reminders#cancel(String, String)}; REST answers {@code 404}.
 */
public class ReminderNotFoundException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String namespace;
  private final String key;

  public ReminderNotFoundException(String namespace, String key) {
    super("no reminder " + Quoting.quote(key) + " in namespace " + Quoting.quote(namespace));
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
