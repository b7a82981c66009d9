package io.belfry.reminders.api.validation;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A payload declared as JSON ({@code application/json} or {@code …+json}) is well-formed JSON, so
 * that a handler calling a JSON parser on it never fails long after the request was accepted.
 * Reported on {@code payload}.
 */
@Documented
@Constraint(validatedBy = JsonPayloadValidator.class)
@Target(TYPE)
@Retention(RUNTIME)
public @interface JsonPayload {
  String message() default "is not well-formed JSON";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
