package io.belfry.reminders.api.validation;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * The rules of a {@link io.belfry.reminders.api.ReminderRequest} that involve more than one field:
 * the first fire time, one recurrence, cron with its zone, {@code until} after the first fire,
 * {@code deadline} only with SKIP. Each violation is reported on the field to change.
 */
@Documented
@Constraint(validatedBy = ConsistentScheduleValidator.class)
@Target(TYPE)
@Retention(RUNTIME)
public @interface ConsistentSchedule {
  String message() default "is not a consistent schedule";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
