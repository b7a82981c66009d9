package io.belfry.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.foundation.Deployments;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
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
import org.openqa.selenium.WebElement;

/**
 * The console in headless Chromium against the provisioned server: log in, create a one-shot
 * reminder and watch it fire in its history, preview a cron reminder's next occurrences, edit,
 * cancel, a validation error on its field with nothing saved, a viewer without editing controls,
 * the cluster view. Screenshots go to {@code target/screenshots}.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ConsoleIT {

  static final String ADMIN = "it-admin";
  static final String ADMIN_PASSWORD = "it-admin-password";
  static final String VIEWER = "it-console-viewer";
  static final String VIEWER_PASSWORD = "it-console-viewer-password";

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

  private String filterBy(String key) {
    browser.open(Routes.REMINDERS);
    browser.type("filter-prefix", "");
    browser.type("filter-namespace", "default");
    browser.type("filter-prefix", key);
    // the "Created …" notification also names the key: wait for the grid row itself
    browser.awaitRow("default/" + key);
    browser.awaitVaadin();
    return key;
  }

  @Test
  void login_dashboardShowsUser() throws Exception {
    browser.login(ADMIN, ADMIN_PASSWORD);
    browser.awaitText("Fires per minute");
    assertThat(browser.await(By.id("current-user")).getText())
        .contains(ADMIN)
        .contains("belfry-admin");
    browser.screenshot("dashboard");
  }

  /**
   * Cross-site request forgery: a logged-in admin's browser sends the console's session cookie with
   * any request to the server, also one a page of another site makes. The API refuses a request
   * that has only that cookie, however it is made.
   */
  @Test
  void everyStylesheetThePageLinks_loadsAsCss() throws Exception {
    browser.login(ADMIN, ADMIN_PASSWORD);
    browser.awaitText("Fires per minute");
    @SuppressWarnings("unchecked")
    List<String> sheets =
        (List<String>)
            browser.js(
                "return Array.from(document.querySelectorAll('link[rel=stylesheet]'), l => l.href);");
    HttpClient http = HttpClient.newHttpClient();
    for (String sheet : sheets) {
      HttpResponse<Void> response =
          http.send(
              HttpRequest.newBuilder(URI.create(sheet)).build(),
              HttpResponse.BodyHandlers.discarding());
      assertThat(response.statusCode()).as(sheet).isEqualTo(200);
      assertThat(response.headers().firstValue("Content-Type").orElse(""))
          .as(sheet)
          .startsWith("text/css");
    }
  }

  @Test
  void loggedIntoTheConsole_apiRefusesTheSessionCookie() throws Exception {
    browser.login(ADMIN, ADMIN_PASSWORD);
    browser.awaitText("Fires per minute");
    for (String call :
        List.of(
            "fetch('/belfry/api/v1/reminders/default/csrf/redelivery', {method: 'POST', credentials: 'include'})",
            "fetch('/belfry/api/v1/audit?limit=1', {credentials: 'include'})")) {
      Object status =
          ((org.openqa.selenium.JavascriptExecutor) browser.driver)
              .executeAsyncScript(
                  "const done = arguments[arguments.length - 1];"
                      + call
                      + ".then(r => done(r.status)).catch(e => done(String(e)));");
      assertThat(status).as(call).isEqualTo(401L);
    }
    browser.open(Routes.REMINDERS);
    browser.awaitVaadin();
    assertThat(browser.driver.getCurrentUrl())
        .as("the console itself still works")
        .doesNotContain("login");
  }

  @Test
  void login_wrongPassword_staysOnLoginWithError() {
    browser.open(Routes.LOGIN);
    WebElement form = browser.await(By.tagName("vaadin-login-form"));
    form.findElement(By.cssSelector("input[name='username']")).sendKeys(ADMIN);
    form.findElement(By.cssSelector("input[name='password']")).sendKeys("wrong");
    form.findElement(By.cssSelector("vaadin-button[slot='submit']")).click();
    new org.openqa.selenium.support.ui.WebDriverWait(browser.driver, Browser.WAIT)
        .until(d -> form.getAttribute("error") != null);
    assertThat(browser.driver.getCurrentUrl()).contains("login");
    browser.open(Routes.REMINDERS);
    browser.await(By.tagName("vaadin-login-form"));
    assertThat(browser.driver.getCurrentUrl()).as("no way past the login").contains("login");
  }

  @Test
  void createOneShot_firesAndShowsInHistory() throws Exception {
    browser.login(ADMIN, ADMIN_PASSWORD);
    browser.open(Routes.REMINDERS);
    String key = "console-once-" + UUID.randomUUID().toString().substring(0, 8);
    browser.click("new-reminder");
    browser.type("key", key);
    browser.type("delay", "PT3S");
    browser.type("payload", "{\"from\": \"console\"}");
    browser.screenshot("create-form");
    browser.click("save-reminder");
    browser.awaitText("Created " + key);

    filterBy(key);
    browser.screenshot("reminders");
    browser.clickRowButtonUntil("History default/" + key, "default / " + key);
    long deadline = System.currentTimeMillis() + 30_000;
    while (!browser.hasText("FIRED") && System.currentTimeMillis() < deadline) {
      Thread.sleep(1_000);
      browser.driver.navigate().refresh();
      browser.awaitVaadin();
    }
    assertThat(browser.hasText("SET")).isTrue();
    assertThat(browser.hasText("FIRED")).as("fired within 30 s").isTrue();
    assertThat(browser.hasText(ADMIN)).as("the principal of the set").isTrue();
    browser.screenshot("history");
  }

  @Test
  void cron_previewListsNextFiveOccurrences_thenSaved() throws Exception {
    browser.login(ADMIN, ADMIN_PASSWORD);
    browser.open(Routes.REMINDERS);
    String key = "console-cron-" + UUID.randomUUID().toString().substring(0, 8);
    browser.click("new-reminder");
    browser.type("key", key);
    browser.clickText("vaadin-radio-button", "Cron");
    browser.type("cron", "0 9 * * MON-FRI");
    browser.click("preview-button");
    new org.openqa.selenium.support.ui.WebDriverWait(browser.driver, Browser.WAIT)
        .until(d -> d.findElements(By.cssSelector("#preview li")).size() == 5);
    // textContent, not getText(): the list may sit below the dialog's fold, where WebDriver calls
    // the text invisible
    assertThat(browser.driver.findElements(By.cssSelector("#preview li")))
        .as("five weekday 09:00 occurrences")
        .allSatisfy(li -> assertThat(li.getAttribute("textContent")).contains("09:00:00 UTC"));
    browser.screenshot("cron-preview");
    browser.click("save-reminder");
    browser.awaitText("Created " + key);
    filterBy(key);
    browser.awaitText("cron 0 9 * * MON-FRI UTC");
  }

  @Test
  void edit_showsVersionChange_thenCancelWithConfirmation() throws Exception {
    browser.login(ADMIN, ADMIN_PASSWORD);
    browser.open(Routes.REMINDERS);
    String key = "console-edit-" + UUID.randomUUID().toString().substring(0, 8);
    browser.click("new-reminder");
    browser.type("key", key);
    browser.type("delay", "PT1H");
    browser.click("save-reminder");
    browser.awaitText("Created " + key);

    filterBy(key);
    browser.clickRowButtonUntil("Edit default/" + key, "Edit " + key + " (version");
    browser.clickText("vaadin-radio-button", "Every");
    browser.type("every", "PT15M");
    browser.click("save-reminder");
    browser.awaitText("Replaced " + key + ": version");
    filterBy(key);
    browser.awaitText("every 15 min");

    browser.clickRowButtonUntil("Cancel default/" + key, "Cancel default/" + key + "?");
    browser.click("confirm-cancel");
    browser.awaitText("Cancelled " + key);
    assertThat(api("GET", "/reminders/default/" + key, null, ADMIN, ADMIN_PASSWORD).statusCode())
        .isEqualTo(404);
  }

  @Test
  void invalidField_errorOnTheField_nothingSaved() throws Exception {
    browser.login(ADMIN, ADMIN_PASSWORD);
    browser.open(Routes.REMINDERS);
    String key = "console-invalid-" + UUID.randomUUID().toString().substring(0, 8);
    browser.click("new-reminder");
    browser.type("key", key);
    browser.clickText("vaadin-radio-button", "Every");
    browser.type("every", "every now and then");
    browser.click("save-reminder");
    WebElement every = browser.await(By.id("every"));
    new org.openqa.selenium.support.ui.WebDriverWait(browser.driver, Browser.WAIT)
        .until(d -> every.getAttribute("invalid") != null);
    assertThat(every.getText()).isNotBlank();
    browser.screenshot("validation-error");
    assertThat(api("GET", "/reminders/default/" + key, null, ADMIN, ADMIN_PASSWORD).statusCode())
        .isEqualTo(404);
  }

  @Test
  void viewer_seesNoEditingControls() throws Exception {
    int created =
        api(
                "PUT",
                "/users/" + VIEWER,
                "{\"password\": \"" + VIEWER_PASSWORD + "\", \"roles\": [\"belfry-viewer\"]}",
                ADMIN,
                ADMIN_PASSWORD)
            .statusCode();
    assertThat(created).isIn(200, 201);
    String key = "console-viewer-" + UUID.randomUUID().toString().substring(0, 8);
    api("PUT", "/reminders/default/" + key, "{\"delay\": \"PT1H\"}", ADMIN, ADMIN_PASSWORD);

    browser.login(VIEWER, VIEWER_PASSWORD);
    filterBy(key);
    assertThat(browser.driver.findElements(By.id("new-reminder"))).isEmpty();
    assertThat(browser.hasText("Edit")).isFalse();
    assertThat(browser.await(By.id("current-user")).getText()).contains("belfry-viewer");
    browser.screenshot("viewer");
  }

  @Test
  void deadLetter_shownWithItsError_redeliveredByAnAdmin() throws Exception {
    // namespace default forwards to a webhook nobody listens on: every attempt fails at once
    int closedPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    String sink =
        "{\"webhookUrl\": \"http://127.0.0.1:"
            + closedPort
            + "/nobody\", \"secret\": \"console-it-secret-16+\", \"timeout\": \"PT1S\"}";
    String key = "console-dead-" + UUID.randomUUID().toString().substring(0, 8);
    try {
      assertThat(api("PUT", "/namespaces/default/sink", sink, ADMIN, ADMIN_PASSWORD).statusCode())
          .isIn(200, 201);
      api(
          "PUT",
          "/reminders/default/" + key,
          "{\"delay\": \"PT1S\", \"delivery\": \"AT_LEAST_ONCE\"}",
          ADMIN,
          ADMIN_PASSWORD);
      // five attempts, 0.5-1 s, 1-2 s, 2-4 s and 4-8 s apart (the default policy)
      awaitApi(key, body -> body.contains("\"state\":\"DEAD_LETTER\""), "a dead letter");
    } finally {
      api("DELETE", "/namespaces/default/sink", null, ADMIN, ADMIN_PASSWORD);
    }

    browser.login(ADMIN, ADMIN_PASSWORD);
    filterBy(key);
    browser.awaitText("DEAD_LETTER");
    browser.screenshot("dead-letter");
    browser.clickRowButtonUntil("Redeliver default/" + key, "Redelivering " + key);
    // with no sink left, the delivery succeeds and the one-shot is committed
    awaitApi(key, body -> body.isEmpty(), "the redelivered reminder to be committed");
  }

  /** Polls GET of a reminder until {@code done} holds for its body ("" once it is gone, 404). */
  private void awaitApi(String key, java.util.function.Predicate<String> done, String what)
      throws Exception {
    long deadline = System.currentTimeMillis() + 40_000;
    String body = null;
    while (System.currentTimeMillis() < deadline) {
      HttpResponse<String> answer =
          api("GET", "/reminders/default/" + key, null, ADMIN, ADMIN_PASSWORD);
      body = answer.statusCode() == 404 ? "" : answer.body().replace(" ", "");
      if (done.test(body)) {
        return;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("waited 40 s for " + what + "; last: " + body);
  }

  @Test
  void cluster_listsThisNodeAndAllSegments() throws Exception {
    browser.login(ADMIN, ADMIN_PASSWORD);
    browser.open(Routes.CLUSTER);
    browser.awaitText("it-node");
    assertThat(browser.driver.findElements(By.cssSelector("#segments > div"))).hasSize(256);
    browser.screenshot("cluster");
  }

  private HttpResponse<String> api(
      String method, String path, String body, String user, String password) throws Exception {
    return ConsoleApi.call(base, method, path, body, user, password);
  }
}
