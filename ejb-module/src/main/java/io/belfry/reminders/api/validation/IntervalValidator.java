package io.belfry.reminders.api.validation;

import io.belfry.reminders.api.ValidationLimits;
import io.belfry.reminders.schedule.ScheduleParser;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.time.Duration;

public class IntervalValidator implements ConstraintValidator<Interval, String> {

  @Override
  public boolean isValid(String text, ConstraintValidatorContext context) {
    if (text == null) {
      return true;
    }
    Duration interval;
    try {
      interval = ScheduleParser.parseInterval(text);
    } catch (IllegalArgumentException e) {
      Violations.report(context, e.getMessage());
      return false;
    }
    String tooShort = tooShort(interval);
    if (tooShort != null) {
      Violations.report(context, tooShort);
      return false;
    }
    return true;
  }

  /** Why {@code interval} is below the configured minimum, or {@code null} if it is not. */
  static String tooShort(Duration interval) {
    Duration min = ValidationLimits.minInterval();
    if (interval.compareTo(min) >= 0) {
      return null;
    }
    return "must be at least "
        + min.toMillis()
        + " ms ("
        + min
        + "), was "
        + interval.toMillis()
        + " ms";
  }
}
