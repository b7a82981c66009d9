package io.belfry.reminders.api;

import jakarta.validation.ConstraintViolation;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A request broke one or more validation rules; nothing was changed. Each {@link Violation} names
 * the offending field as the REST contract spells it ({@code every}, {@code fireAt}, …), so REST
 * can answer {@code 400} with the list as it is and the console can mark the field.
 */
public class InvalidReminderException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** One broken rule: the field (property path; empty for the request as a whole) and why. */
  public record Violation(String field, String message) {
    public Violation {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
      return (field.isEmpty() ? "request" : field) + ": " + message;
    }
  }

  // Sorted so that messages, REST bodies and tests do not depend on the validator's Set order.
  private static final Comparator<Violation> BY_FIELD_THEN_MESSAGE =
      Comparator.comparing(Violation::field).thenComparing(Violation::message);

  private final List<Violation> violations;

  public InvalidReminderException(List<Violation> violations) {
    super(describe(violations));
    this.violations = violations.stream().sorted(BY_FIELD_THEN_MESSAGE).toList();
  }

  /** One violation, for rules checked outside Bean Validation (e.g. a namespace nobody serves). */
  public static InvalidReminderException of(String field, String message) {
    return new InvalidReminderException(List.of(new Violation(field, message)));
  }

  /** The violations Bean Validation reported, field = property path. */
  public static InvalidReminderException from(Set<? extends ConstraintViolation<?>> violations) {
    return new InvalidReminderException(
        violations.stream()
            .map(v -> new Violation(v.getPropertyPath().toString(), v.getMessage()))
            .toList());
  }

  /** Immutable, sorted by field then message. */
  public List<Violation> getViolations() {
    return violations;
  }

  private static String describe(List<Violation> violations) {
    if (violations.isEmpty()) {
      throw new IllegalArgumentException("an invalid request has at least one violation");
    }
    return "invalid reminder: "
        + violations.stream()
            .sorted(BY_FIELD_THEN_MESSAGE)
            .map(Violation::toString)
            .collect(Collectors.joining("; "));
  }
}
