package io.belfry.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.foundation.Deployments;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;

/**
 * The console's session in a real browser: a user removed or demoted through the API loses the
 * console on their next request, and the console's answers cannot be framed, with a session cookie
 * scripts cannot read and other sites do not send.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ConsoleSecurityIT {

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.belfryWar();
  }

  @ArquillianResource URL base;

  private Browser browser;

  @BeforeEach
  void openBrowser() throws Exception {
    browser = Browser.openOrSkip(base);
  }

  @AfterEach
  void closeBrowser() {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  void demotedThenRemoved_losesTheConsoleAtOnce() throws Exception {
    String name = "console-demoted-" + UUID.randomUUID().toString().substring(0, 8);
    String password = "console-demoted-password";
    assertThat(save(name, password, "\"belfry-admin\", \"belfry-viewer\"")).isEqualTo(201);
    browser.login(name, password);
    browser.awaitText("Fires per minute");
    assertThat(browser.await(By.id("current-user")).getText()).contains("belfry-admin");

    assertThat(save(name, password, "\"belfry-viewer\"")).isEqualTo(200);
    browser.open(Routes.REMINDERS);
    browser.await(By.tagName("vaadin-login-form"));
    assertThat(browser.driver.getCurrentUrl()).as("demoted: logged out").contains("login");

    browser.login(name, password);
    browser.awaitText("Fires per minute");
    assertThat(browser.await(By.id("current-user")).getText())
        .as("back with the new roles only")
        .contains("belfry-viewer")
        .doesNotContain("belfry-admin");

    assertThat(
            ConsoleApi.call(
                    base,
                    "DELETE",
                    "/users/" + name,
                    null,
                    ConsoleIT.ADMIN,
                    ConsoleIT.ADMIN_PASSWORD)
                .statusCode())
        .isEqualTo(204);
    browser.open(Routes.REMINDERS);
    browser.await(By.tagName("vaadin-login-form"));
    assertThat(browser.driver.getCurrentUrl()).as("removed: logged out").contains("login");
  }

  @Test
  void answers_cannotBeFramed_sessionCookieHttpOnlyAndSameSite() throws Exception {
    HttpResponse<String> page =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(base + Routes.LOGIN)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(page.headers().firstValue("X-Frame-Options")).hasValue("DENY");
    assertThat(page.headers().firstValue("Content-Security-Policy"))
        .hasValue("frame-ancestors 'none'");
    assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(page.headers().allValues("Set-Cookie"))
        .filteredOn(cookie -> cookie.startsWith("JSESSIONID="))
        .isNotEmpty()
        .allSatisfy(
            cookie -> assertThat(cookie).containsIgnoringCase("HttpOnly").contains("SameSite=Lax"));
  }

  private int save(String name, String password, String roles) throws Exception {
    return ConsoleApi.call(
            base,
            "PUT",
            "/users/" + name,
            "{\"password\": \"" + password + "\", \"roles\": [" + roles + "]}",
            ConsoleIT.ADMIN,
            ConsoleIT.ADMIN_PASSWORD)
        .statusCode();
  }
}
