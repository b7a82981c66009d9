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

/**
 * An ISO 8601 repeating interval {@code R[n]/start/period} that parses, whose period is at least
 * the minimum interval, and whose start (the first fire time) is within 100 years of now. {@code
 * null} is valid.
 */
@Documented
@Constraint(validatedBy = RepeatingIntervalValidator.class)
@Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT})
@Retention(RUNTIME)
public @interface RepeatingInterval {
  String message() default "is not a valid repeating interval";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
