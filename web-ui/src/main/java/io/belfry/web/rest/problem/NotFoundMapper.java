package io.belfry.web.rest.problem;

import io.belfry.reminders.api.ReminderNotFoundException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** No live reminder under that namespace and key: {@code 404}. */
@Provider
public class NotFoundMapper implements ExceptionMapper<ReminderNotFoundException> {

  @Override
  public Response toResponse(ReminderNotFoundException e) {
    return Problem.of(
            "reminder-not-found", "No such reminder", Response.Status.NOT_FOUND, e.getMessage())
        .toResponse();
  }
}
