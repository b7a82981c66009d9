package io.belfry.reminders.api.validation;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.RECORD_COMPONENT;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/** A reminder key: 1–512 printable characters, no control characters. {@code null} is valid. */
@Documented
@Constraint(validatedBy = ReminderKeyValidator.class)
@Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT})
@Retention(RUNTIME)
public @interface ReminderKey {
  String message() default "must be 1-512 printable characters, without control characters";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
