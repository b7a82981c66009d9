package io.belfry.reminders.cdi;

import io.belfry.reminders.model.ReminderId;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * The namespaces this deployment serves: those declared with {@code @ServesNamespaces}, else its
 * application name. The first one is the caller's namespace, used when a request names none.
 */
@ApplicationScoped
public class DeploymentNamespaces {

  @Inject NamespaceExtension extension;

  /**
   * The application's name: a WAR's module name, an EAR's name. Not {@code java:module/ModuleName}:
   * in an EAR this bean lives in {@code lib/}, which belongs to no module, and the lookup fails the
   * deployment (examples/billing showed it).
   */
  @Resource(lookup = "java:app/AppName")
  String applicationName;

  private List<String> served;

  @PostConstruct
  void resolve() {
    List<String> declared = extension.declared();
    served = declared.isEmpty() ? List.of(namespaceOf(applicationName)) : declared;
  }

  /** The application's name ({@code java:app/AppName}). */
  public String applicationName() {
    return applicationName;
  }

  /** The served namespaces, the caller's namespace first. */
  public List<String> served() {
    return served;
  }

  /** The namespace of requests that name none. */
  public String callerNamespace() {
    return served().get(0);
  }

  /** Whether this deployment fires reminders of {@code namespace}. */
  public boolean serves(String namespace) {
    return served().contains(namespace);
  }

  /** An application's name as a namespace: characters a namespace cannot hold become '-'. */
  static String namespaceOf(String applicationName) {
    String name =
        applicationName == null || applicationName.isBlank() ? "default" : applicationName;
    String cleaned = name.replaceAll("[^A-Za-z0-9._-]", "-").replaceFirst("^[._-]+", "");
    if (cleaned.isEmpty()) {
      cleaned = "default";
    }
    cleaned =
        cleaned.length() > ReminderId.MAX_NAMESPACE_LENGTH
            ? cleaned.substring(0, ReminderId.MAX_NAMESPACE_LENGTH)
            : cleaned;
    return cleaned;
  }
}
