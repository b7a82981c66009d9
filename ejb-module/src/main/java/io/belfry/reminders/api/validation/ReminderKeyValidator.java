package io.belfry.reminders.api.validation;

import io.belfry.reminders.model.ReminderId;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

/** Shares the rule with {@link ReminderId}, so a valid request always makes a valid id. */
public class ReminderKeyValidator implements ConstraintValidator<ReminderKey, String> {
  @Override
  public boolean isValid(String key, ConstraintValidatorContext context) {
    return key == null || ReminderId.isValidKey(key);
  }
}
