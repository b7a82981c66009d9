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
 * A {@link java.time.Duration} between {@link #min()} and {@link #max()} inclusive, both ISO 8601
 * ({@code PT0S}, {@code P36525D}). {@code null} is valid. Jakarta Validation has no duration
 * constraint, and Hibernate's {@code @DurationMin} would tie the API to one provider.
 */
@Documented
@Constraint(validatedBy = DurationRangeValidator.class)
@Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT})
@Retention(RUNTIME)
public @interface DurationRange {
  String min() default "PT0S";

  String max();

  String message();

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
