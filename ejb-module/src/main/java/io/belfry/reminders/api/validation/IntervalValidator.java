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
    String outOfRange = outOfRange(interval);
    if (outOfRange != null) {
      Violations.report(context, outOfRange);
      return false;
    }
    return true;
  }

  /**
   * Why {@code interval} is below the configured minimum or beyond the 100-year horizon (no second
   * occurrence could ever be due), or {@code null} if it is neither.
   */
  static String outOfRange(Duration interval) {
    String tooShort = tooShort(interval);
    if (tooShort != null) {
      return tooShort;
    }
    if (interval.compareTo(ValidationLimits.MAX_HORIZON) > 0) {
      return "must be at most 100 years (" + ValidationLimits.MAX_HORIZON + ")";
    }
    return null;
  }

  /** Why {@code interval} is below the configured minimum, or {@code null} if it is not. */
  private static String tooShort(Duration interval) {
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
