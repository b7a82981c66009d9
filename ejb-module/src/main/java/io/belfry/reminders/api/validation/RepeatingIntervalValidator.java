package io.belfry.reminders.api.validation;

import io.belfry.reminders.api.Schedule;
import io.belfry.reminders.schedule.ScheduleParser;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.time.Instant;

public class RepeatingIntervalValidator implements ConstraintValidator<RepeatingInterval, String> {

  @Override
  public boolean isValid(String text, ConstraintValidatorContext context) {
    if (text == null) {
      return true;
    }
    Schedule.Repeat repeat;
    try {
      repeat = ScheduleParser.repeat(text);
    } catch (IllegalArgumentException e) {
      Violations.report(context, e.getMessage());
      return false;
    }
    String outOfRange = IntervalValidator.outOfRange(repeat.period());
    if (outOfRange != null) {
      Violations.report(context, "period " + outOfRange);
      return false;
    }
    Instant now = context.getClockProvider().getClock().instant();
    if (!WithinHorizonValidator.isWithinHorizon(repeat.start(), now)) {
      Violations.report(context, "start must be within 100 years of now");
      return false;
    }
    return true;
  }
}
