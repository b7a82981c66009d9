package io.belfry.reminders.api.validation;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.RECORD_COMPONENT;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A namespace: 1–128 characters of {@code [A-Za-z0-9._-]}, starting with a letter or digit. {@code
 * null} is valid (the default).
 */
@Documented
@Constraint(validatedBy = ReminderNamespaceValidator.class)
// TYPE_USE: also on the elements of a collection, e.g. the namespaces an API token is bound to
@Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT, TYPE_USE})
@Retention(RUNTIME)
public @interface ReminderNamespace {
  String message() default
      "must be 1-128 characters of letters, digits, '.', '_' or '-' (A-Z a-z 0-9 . _ -), starting with a letter or digit";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
