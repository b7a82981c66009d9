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
 * The URL of an ActiveMQ Artemis broker: exactly {@code tcp://host:port}, with a host and a port
 * from 1 to 65535, nothing else (no path, no query: Belfry sets the connection's timeouts itself
 * from the sink's {@code timeout}; no user information: credentials go in {@code jmsUser} and
 * {@code jmsPassword}, which are never shown back). {@code null} is valid (no Jakarta Messaging
 * sink).
 */
@Documented
@Constraint(validatedBy = JmsUrlValidator.class)
@Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT})
@Retention(RUNTIME)
public @interface JmsUrl {
  String message() default "must be tcp://host:port";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
