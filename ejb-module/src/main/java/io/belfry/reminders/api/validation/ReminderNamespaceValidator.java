package io.belfry.reminders.api.validation;

import io.belfry.reminders.model.ReminderId;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

/** Shares the rule with {@link ReminderId}, so a valid request always makes a valid id. */
public class ReminderNamespaceValidator implements ConstraintValidator<ReminderNamespace, String> {
  @Override
  public boolean isValid(String namespace, ConstraintValidatorContext context) {
    return namespace == null || ReminderId.isValidNamespace(namespace);
  }
}
