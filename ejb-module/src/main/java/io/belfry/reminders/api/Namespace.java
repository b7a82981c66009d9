package io.belfry.reminders.api;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.enterprise.util.AnnotationLiteral;
import jakarta.inject.Qualifier;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.util.Objects;

/**
 * Selects the {@link ReminderFired} events of one namespace:
 *
 * <pre>{@code
 * void onShopReminder(@Observes @Namespace("shop") ReminderFired fired) { ... }
 * }</pre>
 *
 * <p>The engine fires every event with the qualifier of its namespace, {@code
 * event.select(Namespace.Literal.of(namespace)).fire(fired)}. CDI delivers an event to each
 * observer whose qualifiers are a subset of the event's, so:
 *
 * <ul>
 *   <li>{@code @Observes @Namespace("shop") ReminderFired} receives the fires of {@code shop} only;
 *   <li>{@code @Observes ReminderFired}, with no qualifier, observes {@code @Any} and receives
 *       every fire delivered in its deployment, which is every namespace that deployment serves
 *       (fires of namespaces it does not serve never reach it: another deployment or node delivers
 *       them);
 *   <li>{@code @ObservesAsync} works the same way.
 * </ul>
 *
 * The value is a binding member: {@code @Namespace("a")} and {@code @Namespace("b")} differ.
 */
@Qualifier
@Documented
@Retention(RUNTIME)
@Target({TYPE, METHOD, FIELD, PARAMETER})
public @interface Namespace {

  /** The namespace, as in {@link ReminderRequest#getNamespace()}. */
  String value();

  /** An instance of the qualifier, for {@code Event.select(..)} and {@code Instance.select(..)}. */
  final class Literal extends AnnotationLiteral<Namespace> implements Namespace {

    private static final long serialVersionUID = 1L;

    private final String value;

    private Literal(String value) {
      this.value = value;
    }

    public static Literal of(String namespace) {
      return new Literal(Objects.requireNonNull(namespace, "namespace"));
    }

    @Override
    public String value() {
      return value;
    }
  }
}
