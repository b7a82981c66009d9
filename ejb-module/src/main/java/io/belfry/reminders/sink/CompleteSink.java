package io.belfry.reminders.sink;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A sink that forwards somewhere: a {@code webhookUrl} with a {@code secret} to sign with, a {@code
 * jmsUrl} with a {@code jmsDestination}, or both; and no field its sinks would not use. Each
 * violation names its field ({@link CompleteSinkValidator}).
 */
@Documented
@Constraint(validatedBy = CompleteSinkValidator.class)
@Target(TYPE)
@Retention(RUNTIME)
public @interface CompleteSink {
  String message() default "is not complete";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
