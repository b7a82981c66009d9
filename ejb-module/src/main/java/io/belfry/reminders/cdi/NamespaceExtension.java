package io.belfry.reminders.cdi;

import io.belfry.reminders.api.ServesNamespaces;
import io.belfry.reminders.model.ReminderId;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.WithAnnotations;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects the namespaces a deployment declares with {@link ServesNamespaces} while CDI discovers
 * its beans, and refuses to deploy an invalid namespace name (a clear error at deployment beats a
 * reminder that silently never fires).
 */
public class NamespaceExtension implements Extension {

  private final Set<String> declared = new LinkedHashSet<>();
  private final List<String> invalid = new java.util.ArrayList<>();

  <T> void collect(
      @Observes @WithAnnotations(ServesNamespaces.class) ProcessAnnotatedType<T> type) {
    ServesNamespaces serves = type.getAnnotatedType().getAnnotation(ServesNamespaces.class);
    if (serves == null) {
      return;
    }
    for (String namespace : serves.value()) {
      if (ReminderId.isValidNamespace(namespace)) {
        declared.add(namespace);
      } else {
        invalid.add(type.getAnnotatedType().getJavaClass().getName() + ": '" + namespace + "'");
      }
    }
  }

  void validate(@Observes AfterBeanDiscovery discovery) {
    for (String problem : invalid) {
      discovery.addDefinitionError(
          new IllegalArgumentException(
              "@ServesNamespaces on "
                  + problem
                  + " is not a namespace: 1 to 128 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit"));
    }
  }

  /** The declared namespaces in declaration order; empty when the deployment declares none. */
  public List<String> declared() {
    return List.copyOf(declared);
  }
}
