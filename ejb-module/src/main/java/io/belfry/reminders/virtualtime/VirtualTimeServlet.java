package io.belfry.reminders.virtualtime;

import static io.belfry.reminders.model.JsonFactory.JSON;

import jakarta.enterprise.inject.spi.CDI;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * {@link VirtualTime} over HTTP, for Arquillian client tests ({@code @RunAsClient}, {@code testable
 * = false}); registered at {@value #PATH} in the application only when virtual time is on for it
 * ({@link VirtualTimeInitializer}), absent otherwise.
 *
 * <ul>
 *   <li>{@code GET}: {@code {"now": …, "nextDue": … or null}}
 *   <li>{@code POST ?advanceBy=PT30M}, {@code POST ?advanceTo=2026-01-05T09:30:00Z}, or {@code
 *       POST} with neither (fire what is due now): {@code {"now": …, "delivered": n}}, after the
 *       fires were delivered. A malformed or backwards value is a 400 naming the parameter.
 * </ul>
 */
public class VirtualTimeServlet extends HttpServlet {

  public static final String PATH = "/belfry/virtual-time";

  private static final long serialVersionUID = 1L;

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    if (!time().enabled()) {
      response.sendError(HttpServletResponse.SC_NOT_FOUND);
      return;
    }
    super.service(request, response);
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    VirtualTime time = time();
    Optional<Instant> next = time.nextDue();
    JsonObjectBuilder body = JSON.createObjectBuilder().add("now", time.now().toString());
    if (next.isPresent()) {
      body.add("nextDue", next.get().toString());
    } else {
      body.addNull("nextDue");
    }
    write(response, HttpServletResponse.SC_OK, body);
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String by = request.getParameter("advanceBy");
    String to = request.getParameter("advanceTo");
    if (by != null && to != null) {
      badRequest(response, "advanceBy", "give advanceBy or advanceTo, not both");
      return;
    }
    String parameter = by != null ? "advanceBy" : "advanceTo";
    VirtualTime time = time();
    int delivered;
    try {
      delivered =
          by != null
              ? time.advanceBy(Duration.parse(by))
              : to != null ? time.advanceTo(Instant.parse(to)) : time.fireDue();
    } catch (DateTimeException | IllegalArgumentException e) {
      // a malformed value, or time asked to move backwards (the driver refuses it)
      badRequest(response, parameter, parameter + ": " + e.getMessage());
      return;
    }
    write(
        response,
        HttpServletResponse.SC_OK,
        JSON.createObjectBuilder().add("now", time.now().toString()).add("delivered", delivered));
  }

  private static VirtualTime time() {
    return CDI.current().select(VirtualTime.class).get();
  }

  private static void badRequest(HttpServletResponse response, String field, String message)
      throws IOException {
    write(
        response,
        HttpServletResponse.SC_BAD_REQUEST,
        JSON.createObjectBuilder().add("field", field).add("message", message));
  }

  private static void write(HttpServletResponse response, int status, JsonObjectBuilder body)
      throws IOException {
    response.setStatus(status);
    response.setContentType("application/json");
    response.setCharacterEncoding("UTF-8");
    response.getWriter().write(body.build().toString());
  }
}
