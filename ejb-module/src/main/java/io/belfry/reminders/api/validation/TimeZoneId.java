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

/** A {@link java.time.ZoneId}: a region ({@code Europe/Paris}) or offset. {@code null} is valid. */
@Documented
@Constraint(validatedBy = TimeZoneIdValidator.class)
@Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT})
@Retention(RUNTIME)
public @interface TimeZoneId {
  String message() default "is not a known time zone";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
