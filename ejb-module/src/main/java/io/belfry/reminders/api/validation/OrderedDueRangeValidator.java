package io.belfry.reminders.api.validation;

import io.belfry.reminders.api.ReminderQuery;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

public class OrderedDueRangeValidator
    implements ConstraintValidator<OrderedDueRange, ReminderQuery> {

  @Override
  public boolean isValid(ReminderQuery query, ConstraintValidatorContext context) {
    if (query == null || query.dueAfter() == null || query.dueBefore() == null) {
      return true;
    }
    if (query.dueBefore().isAfter(query.dueAfter())) {
      return true;
    }
    context.disableDefaultConstraintViolation();
    context
        .buildConstraintViolationWithTemplate(context.getDefaultConstraintMessageTemplate())
        .addPropertyNode("dueBefore")
        .addConstraintViolation();
    return false;
  }
}
