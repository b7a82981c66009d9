package io.belfry.reminders.sink;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.RECORD_COMPONENT;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * An absolute {@code http} or {@code https} URL with a host, at most {@value SinkSettings#MAX_URL}
 * characters, without user information (credentials would be shown back by the API; the signature
 * authenticates Belfry instead) and without a fragment. {@code null} is valid (no webhook).
 */
@Documented
@Constraint(validatedBy = WebhookUrlValidator.class)
@Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT})
@Retention(RUNTIME)
public @interface WebhookUrl {
  String message() default "must be an absolute http or https URL";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
