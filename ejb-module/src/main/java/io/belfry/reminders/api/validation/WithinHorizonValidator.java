package io.belfry.reminders.api.validation;

import io.belfry.reminders.api.ValidationLimits;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.time.Duration;
import java.time.Instant;

public class WithinHorizonValidator implements ConstraintValidator<WithinHorizon, Instant> {

  @Override
  public boolean isValid(Instant instant, ConstraintValidatorContext context) {
    if (instant == null) {
      return true;
    }
    Instant now = context.getClockProvider().getClock().instant();
    return isWithinHorizon(instant, now);
  }

  static boolean isWithinHorizon(Instant instant, Instant now) {
    Duration horizon = ValidationLimits.MAX_HORIZON;
    return !instant.isBefore(now.minus(horizon)) && !instant.isAfter(now.plus(horizon));
  }
}
