package io.belfry.reminders.api.validation;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.time.Duration;

public class DurationRangeValidator implements ConstraintValidator<DurationRange, Duration> {

  private Duration min;
  private Duration max;

  @Override
  public void initialize(DurationRange range) {
    min = Duration.parse(range.min());
    max = Duration.parse(range.max());
  }

  @Override
  public boolean isValid(Duration duration, ConstraintValidatorContext context) {
    return duration == null || (duration.compareTo(min) >= 0 && duration.compareTo(max) <= 0);
  }
}
