package io.belfry.reminders.api.validation;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A {@link io.belfry.reminders.api.ReminderQuery}'s {@code dueBefore} is after its {@code dueAfter}
 * when both are given; reported on {@code dueBefore}.
 */
@Documented
@Constraint(validatedBy = OrderedDueRangeValidator.class)
@Target(TYPE)
@Retention(RUNTIME)
public @interface OrderedDueRange {
  String message() default "must be after dueAfter";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
