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
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console's API tokens in headless Chromium: a bad form is refused on its fields with nothing
 * created; a token made here is shown once, works with the API, and stops working once revoked
 * here; a viewer has no such page.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class TokensViewIT {

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
  void tokenMadeHere_shownOnce_works_thenRevokedHere_refused() throws Exception {
    String name = "console-" + UUID.randomUUID().toString().substring(0, 8);
    browser.login(ConsoleIT.ADMIN, ConsoleIT.ADMIN_PASSWORD);
    browser.open(Routes.TOKENS);

    // nothing filled in: the name and the roles are refused on their fields
    browser.click("create-token");
    browser.awaitInvalid("token-name");
    browser.awaitInvalid("token-roles");
    browser.type("token-name", name);
    browser.type("token-expires-at", "yesterday");
    check("token-roles", "belfry-viewer");
    browser.click("create-token");
    browser.awaitInvalid("token-expires-at");
    assertThat(tokensListed()).doesNotContain(name);

    browser.type("token-expires-at", "2099-01-01T00:00:00Z");
    browser.click("create-token");
    WebElement shown = browser.await(By.cssSelector("#token-secret input"));
    new WebDriverWait(browser.driver, Browser.WAIT)
        .until(d -> shown.getAttribute("value").startsWith("bft_"));
    String token = shown.getAttribute("value");
    browser.screenshot("tokens-created");
    assertThat(tokensListed()).contains(name, "2099-01-01T00:00:00Z").doesNotContain(token);
    assertThat(bearer(token)).as("the new token works").isEqualTo(200);

    browser.clickRowButtonUntil("Revoke " + name, "Token " + name + " revoked");
    assertThat(bearer(token)).as("revoked: refused at once").isEqualTo(401);
    browser.screenshot("tokens-revoked");
  }

  @Test
  void viewer_hasNoTokensPage() throws Exception {
    assertThat(
            ConsoleApi.call(
                    base,
                    "PUT",
                    "/users/" + ConsoleIT.VIEWER,
                    "{\"password\": \""
                        + ConsoleIT.VIEWER_PASSWORD
                        + "\","
                        + " \"roles\": [\"belfry-viewer\"]}",
                    ConsoleIT.ADMIN,
                    ConsoleIT.ADMIN_PASSWORD)
                .statusCode())
        .isIn(200, 201);
    browser.login(ConsoleIT.VIEWER, ConsoleIT.VIEWER_PASSWORD);
    assertThat(browser.hasText("API tokens")).as("not in the navigation").isFalse();
    browser.open(Routes.TOKENS);
    assertThat(browser.driver.findElements(By.id("create-token"))).isEmpty();
    assertThat(browser.driver.getCurrentUrl()).doesNotContain(Routes.TOKENS);
  }

  /** Ticks the checkbox labelled {@code label} of the group {@code groupId}. */
  private void check(String groupId, String label) {
    browser
        .await(
            By.xpath(
                "//vaadin-checkbox-group[@id='"
                    + groupId
                    + "']//vaadin-checkbox[contains(., '"
                    + label
                    + "')]"))
        .click();
  }

  private String tokensListed() throws Exception {
    HttpResponse<String> list =
        ConsoleApi.call(base, "GET", "/tokens", null, ConsoleIT.ADMIN, ConsoleIT.ADMIN_PASSWORD);
    assertThat(list.statusCode()).isEqualTo(200);
    return list.body();
  }

  private int bearer(String token) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(base + "api/v1/audit?limit=1"))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }
}
