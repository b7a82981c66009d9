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
 * Interval text ({@code PT15M}, {@code 15m}, {@code 90s}, or milliseconds) that parses and is at
 * least {@link io.belfry.reminders.api.ValidationLimits#minInterval()}. {@code null} is valid. The
 * message is the parser's, which quotes the input and says what is wrong.
 */
@Documented
@Constraint(validatedBy = IntervalValidator.class)
@Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT})
@Retention(RUNTIME)
public @interface Interval {
  String message() default "is not a valid interval";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
