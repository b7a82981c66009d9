package io.belfry.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.foundation.Deployments;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URL;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The console's sink view in headless Chromium: a bad URL is refused on its field with nothing
 * saved, a good one is saved and the REST API shows it.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class SinkViewIT {

  private static final String SINK = "/namespaces/default/sink";

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.belfryWar();
  }

  @ArquillianResource URL base;

  private Browser browser;

  @BeforeEach
  void openBrowser() throws Exception {
    browser = Browser.openOrSkip(base);
    api("DELETE", null);
  }

  @AfterEach
  void closeBrowser() throws Exception {
    if (browser != null) {
      browser.close();
      // the server outlives this class: leave namespace default without a sink
      api("DELETE", null);
    }
  }

  @Test
  void badUrl_errorOnTheField_nothingSaved_thenAGoodOneIsSaved() throws Exception {
    browser.login(ConsoleIT.ADMIN, ConsoleIT.ADMIN_PASSWORD);
    browser.open(Routes.SINK);
    browser.type("webhookUrl", "ftp://hooks.example.com/x");
    browser.type("secret", "a-console-secret-1234");
    browser.click("save-sink");
    browser.awaitInvalid("webhookUrl");
    browser.screenshot("sink-validation-error");
    assertThat(api("GET", null).statusCode()).isEqualTo(404);

    browser.type("webhookUrl", "https://hooks.example.com/belfry");
    browser.type("timeout", "PT2S");
    browser.click("save-sink");
    browser.awaitText("Saved ");
    browser.screenshot("sink");

    HttpResponse<String> saved = api("GET", null);
    assertThat(saved.statusCode()).isEqualTo(200);
    JsonObject json = Json.createReader(new StringReader(saved.body())).readObject();
    assertThat(json.getString("webhookUrl")).isEqualTo("https://hooks.example.com/belfry");
    assertThat(json.getString("timeout")).isEqualTo("PT2S");
    assertThat(json.getBoolean("hasSecret")).isTrue();
    assertThat(json.getString("updatedBy")).isEqualTo(ConsoleIT.ADMIN);
  }

  @Test
  void newSinkWithoutSecret_errorOnTheSecret_nothingSaved() throws Exception {
    browser.login(ConsoleIT.ADMIN, ConsoleIT.ADMIN_PASSWORD);
    browser.open(Routes.SINK);
    browser.type("webhookUrl", "https://hooks.example.com/belfry");
    browser.click("save-sink");
    browser.awaitInvalid("secret");
    assertThat(api("GET", null).statusCode()).isEqualTo(404);
  }

  private HttpResponse<String> api(String method, String body) throws Exception {
    return ConsoleApi.call(base, method, SINK, body, ConsoleIT.ADMIN, ConsoleIT.ADMIN_PASSWORD);
  }
}
