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
 * An instant within {@link io.belfry.reminders.api.ValidationLimits#MAX_HORIZON 100 years} before
 * or after now, where now comes from the validator's {@link jakarta.validation.ClockProvider}.
 * {@code null} is valid.
 */
@Documented
@Constraint(validatedBy = WithinHorizonValidator.class)
@Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT})
@Retention(RUNTIME)
public @interface WithinHorizon {
  String message() default "must be within 100 years of now";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
