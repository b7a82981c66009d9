package io.belfry.test;

import io.belfry.reminders.api.Namespace;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.api.ServesNamespaces;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What CDI does for an application bean in a deployment, for the part Belfry is concerned with: its
 * {@code @Inject Reminders} fields get the {@link Reminders} of the bean's namespace (the first of
 * {@code @ServesNamespaces}, as for a deployment), and its methods with an {@code @Observes} or
 * {@code @ObservesAsync ReminderFired} parameter observe fires, of the parameter's
 * {@code @Namespace} or, without one, of every namespace. Reflection only: no CDI container.
 */
final class BeanWiring {

  /** One observer method found on a bean. */
  record ObserverMethod(Optional<String> namespace, boolean async, FireObserver observer) {}

  private BeanWiring() {}

  /** The namespace the bean's {@code Reminders} acts in: its first served one, or the default. */
  static String namespaceOf(Class<?> beanClass, String defaultNamespace) {
    for (Class<?> c = beanClass; c != null; c = c.getSuperclass()) {
      ServesNamespaces served = c.getAnnotation(ServesNamespaces.class);
      if (served != null && served.value().length > 0) {
        return served.value()[0];
      }
    }
    return defaultNamespace;
  }

  /** Sets every {@code @Inject Reminders} field of {@code bean}, superclasses' included. */
  static void injectReminders(Object bean, Reminders reminders) {
    for (Class<?> c = bean.getClass(); c != null; c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        if (field.isAnnotationPresent(Inject.class) && field.getType() == Reminders.class) {
          if (Modifier.isFinal(field.getModifiers()) || Modifier.isStatic(field.getModifiers())) {
            throw new IllegalArgumentException(
                "cannot inject " + field + ": CDI injects neither final nor static fields");
          }
          field.setAccessible(true);
          try {
            field.set(bean, reminders);
          } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot inject " + field, e);
          }
        }
      }
    }
  }

  /** The observer methods of {@code bean}, superclasses' included. */
  static List<ObserverMethod> observerMethods(Object bean) {
    List<ObserverMethod> found = new ArrayList<>();
    for (Class<?> c = bean.getClass(); c != null; c = c.getSuperclass()) {
      for (Method method : c.getDeclaredMethods()) {
        Parameter[] parameters = method.getParameters();
        if (parameters.length != 1 || parameters[0].getType() != ReminderFired.class) {
          // Belfry's own events take one parameter; injected extra parameters are not supported
          continue;
        }
        Parameter event = parameters[0];
        boolean sync = event.isAnnotationPresent(Observes.class);
        boolean async = event.isAnnotationPresent(ObservesAsync.class);
        if (sync || async) {
          method.setAccessible(true);
          found.add(
              new ObserverMethod(namespace(event), async, fire -> invoke(method, bean, fire)));
        }
      }
    }
    return found;
  }

  private static Optional<String> namespace(Parameter event) {
    for (Annotation annotation : event.getAnnotations()) {
      if (annotation instanceof Namespace namespace) {
        return Optional.of(namespace.value());
      }
    }
    return Optional.empty();
  }

  private static void invoke(Method method, Object bean, ReminderFired fire) throws Exception {
    try {
      method.invoke(bean, fire);
    } catch (InvocationTargetException e) {
      // what the observer threw, as CDI would pass it on
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }
}
