package io.belfry.reminders.sink;

import io.belfry.reminders.api.validation.Violations;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.lang.annotation.Annotation;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * The shell of a sink's URL constraint: {@code null} is valid (another rule says which fields a
 * sink needs), too long or unparsable is invalid with the message of {@link #shape()}, and the rest
 * is up to {@link #problem(URI)}, whose answer becomes the violation's message.
 */
abstract class UrlValidator<A extends Annotation> implements ConstraintValidator<A, String> {

  @Override
  public final boolean isValid(String url, ConstraintValidatorContext context) {
    if (url == null) {
      return true;
    }
    String problem = problemOf(url);
    if (problem != null) {
      Violations.report(context, problem);
      return false;
    }
    return true;
  }

  private String problemOf(String url) {
    if (url.length() > SinkSettings.MAX_URL) {
      return "must be at most " + SinkSettings.MAX_URL + " characters";
    }
    try {
      return problem(new URI(url));
    } catch (URISyntaxException e) {
      return "must be " + shape() + " (" + e.getReason() + ")";
    }
  }

  /** The URL's expected form, as a message says it, e.g. {@code tcp://host:port}. */
  abstract String shape();

  /** What is wrong with {@code uri}, or {@code null} if it is usable. */
  abstract String problem(URI uri);
}
