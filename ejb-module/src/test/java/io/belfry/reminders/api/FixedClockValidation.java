package io.belfry.reminders.api;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;

/** Hibernate Validator with a fixed clock, so that time-relative rules give stable answers. */
final class FixedClockValidation implements AutoCloseable {

  static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

  private final ValidatorFactory factory;
  private final Validator validator;

  FixedClockValidation() {
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    factory =
        Validation.byDefaultProvider()
            .configure()
            .clockProvider(() -> clock)
            .buildValidatorFactory();
    validator = factory.getValidator();
  }

  Set<ConstraintViolation<Object>> validate(Object bean) {
    return validator.validate(bean);
  }

  /** The violations of {@code bean}, as the API reports them: sorted, field = property path. */
  List<InvalidReminderException.Violation> violationsOf(Object bean) {
    var violations = validator.validate(bean);
    return violations.isEmpty()
        ? List.of()
        : InvalidReminderException.from(violations).getViolations();
  }

  @Override
  public void close() {
    factory.close();
  }
}
