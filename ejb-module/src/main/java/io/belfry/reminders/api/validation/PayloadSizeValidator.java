package io.belfry.reminders.api.validation;

import io.belfry.reminders.api.ValidationLimits;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

public class PayloadSizeValidator implements ConstraintValidator<PayloadSize, byte[]> {
  @Override
  public boolean isValid(byte[] payload, ConstraintValidatorContext context) {
    int max = ValidationLimits.maxPayloadBytes();
    if (payload == null || payload.length <= max) {
      return true;
    }
    Violations.report(
        context, "must be at most " + max + " bytes, was " + payload.length + " bytes");
    return false;
  }
}
