package io.belfry.reminders.cdi;

import io.belfry.reminders.model.ReminderId;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * The namespaces this deployment serves: those declared with {@code @ServesNamespaces}, else its
 * module name. The first one is the caller's namespace, used when a request names none.
 */
@ApplicationScoped
public class DeploymentNamespaces {

  @Inject NamespaceExtension extension;

  @Resource(lookup = "java:module/ModuleName")
  String moduleName;

  private List<String> served;

  @PostConstruct
  void resolve() {
    List<String> declared = extension.declared();
    served = declared.isEmpty() ? List.of(namespaceOf(moduleName)) : declared;
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

  /** A module name as a namespace: characters a namespace cannot hold become '-'. */
  static String namespaceOf(String moduleName) {
    String name = moduleName == null || moduleName.isBlank() ? "default" : moduleName;
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
