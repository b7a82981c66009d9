package io.belfry.reminders.api.validation;

import io.belfry.reminders.schedule.ScheduleParser;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

public class TimeZoneIdValidator implements ConstraintValidator<TimeZoneId, String> {
  @Override
  public boolean isValid(String zone, ConstraintValidatorContext context) {
    if (zone == null) {
      return true;
    }
    try {
      ScheduleParser.parseZone(zone);
      return true;
    } catch (IllegalArgumentException e) {
      Violations.report(context, e.getMessage());
      return false;
    }
  }
}
