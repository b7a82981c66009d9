package io.belfry.web.rest.problem;

import io.belfry.reminders.api.InvalidReminderException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A request that broke validation rules: {@code 400} with one violation per field. */
@Provider
public class InvalidRequestMapper implements ExceptionMapper<InvalidReminderException> {

  @Override
  public Response toResponse(InvalidReminderException e) {
    return Problem.invalid(e.getViolations()).toResponse();
  }
}
