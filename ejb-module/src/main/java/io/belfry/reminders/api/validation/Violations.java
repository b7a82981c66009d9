package io.belfry.reminders.api.validation;

import jakarta.validation.ConstraintValidatorContext;

/** Reports violations whose messages are built in code, possibly quoting user input. */
public final class Violations {

  private Violations() {}

  /**
   * Replaces the default violation with {@code message} on {@code field}. The message is escaped
   * first: it becomes a message template, and a key such as {@code ${…}} must reach the user as
   * text, never be evaluated.
   */
  public static void report(ConstraintValidatorContext context, String field, String message) {
    context.disableDefaultConstraintViolation();
    context
        .buildConstraintViolationWithTemplate(literal(message))
        .addPropertyNode(field)
        .addConstraintViolation();
  }

  /** Like {@link #report(ConstraintValidatorContext, String, String)} on the validated property. */
  public static void report(ConstraintValidatorContext context, String message) {
    context.disableDefaultConstraintViolation();
    context.buildConstraintViolationWithTemplate(literal(message)).addConstraintViolation();
  }

  /** {@code text} as a message template that interpolates to exactly {@code text}. */
  static String literal(String text) {
    StringBuilder out = new StringBuilder(text.length() + 8);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\' || c == '{' || c == '}' || c == '$') {
        out.append('\\');
      }
      out.append(c);
    }
    return out.toString();
  }
}
