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
 * A payload of at most {@link io.belfry.reminders.api.ValidationLimits#maxPayloadBytes()} bytes.
 * Not {@code @Size}: the limit is configured at run time, annotation values are fixed at compile
 * time. {@code null} is valid.
 */
@Documented
@Constraint(validatedBy = PayloadSizeValidator.class)
@Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT})
@Retention(RUNTIME)
public @interface PayloadSize {
  String message() default "is too large";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
