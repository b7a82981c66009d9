package io.belfry.web.rest.problem;

import static io.belfry.reminders.model.JsonFactory.JSON;

import io.belfry.reminders.api.InvalidReminderException.Violation;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Objects;

/**
 * An RFC 9457 problem: the body of every error response of the API, as {@code
 * application/problem+json}. Validation failures add {@code violations}, one per offending field.
 *
 * @param type a URN naming the kind of problem, stable for clients to switch on
 * @param title the kind of problem in words, the same for every occurrence
 * @param status the HTTP status
 * @param detail this occurrence in words
 * @param violations for {@code 400} validation failures; empty otherwise
 */
public record Problem(
    String type, String title, int status, String detail, List<Violation> violations) {

  public static final String MEDIA_TYPE = "application/problem+json";

  private static final String URN = "urn:belfry:problem:";

  public Problem {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(title, "title");
    violations = List.copyOf(violations);
  }

  /** A problem of kind {@code urn:belfry:problem:<kind>}. */
  public static Problem of(String kind, String title, Response.StatusType status, String detail) {
    return new Problem(URN + kind, title, status.getStatusCode(), detail, List.of());
  }

  public static Problem invalid(List<Violation> violations) {
    return new Problem(
        URN + "invalid-request",
        "The request is not valid",
        Response.Status.BAD_REQUEST.getStatusCode(),
        violations.size() == 1
            ? violations.get(0).toString()
            : violations.size() + " fields are not valid",
        violations);
  }

  public JsonObject toJson() {
    JsonObjectBuilder json =
        JSON.createObjectBuilder().add("type", type).add("title", title).add("status", status);
    if (detail != null) {
      json.add("detail", detail);
    }
    if (!violations.isEmpty()) {
      JsonArrayBuilder list = JSON.createArrayBuilder();
      for (Violation v : violations) {
        list.add(JSON.createObjectBuilder().add("field", v.field()).add("message", v.message()));
      }
      json.add("violations", list);
    }
    return json.build();
  }

  public Response toResponse() {
    return Response.status(status).type(MEDIA_TYPE).entity(toJson().toString()).build();
  }
}
