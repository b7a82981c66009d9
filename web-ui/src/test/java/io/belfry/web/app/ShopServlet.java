package io.belfry.web.app;

import io.belfry.reminders.api.Reminders;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The test's handle on the application: {@code POST /set?key=K} sets reminder K of the app's
 * namespace due in one second with payload {@code paid}; {@code GET /fired} lists the fires
 * observed, one {@code key=payload} per line.
 */
@WebServlet("/shop/*")
public class ShopServlet extends HttpServlet {

  @Inject Reminders reminders;

  @Inject ShopReminders shop;

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String key = request.getParameter("key");
    reminders.setAfter(key, Duration.ofSeconds(1), "paid".getBytes(StandardCharsets.UTF_8));
    response.setStatus(204);
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain");
    response.getWriter().write(String.join("\n", shop.fired()));
  }
}
