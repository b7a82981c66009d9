package io.belfry.examples;

import static io.belfry.examples.ExampleServer.call;
import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Virtual time inside a deployment on the test server (user guide, "Virtual time on a test
 * server"): the cart WAR as its pom built it, deployed as {@code cart-on-virtual-time}, which the
 * test servers name in {@code -Dbelfry.virtual-time} (arquillian.xml). Its carts' reminders wait
 * for the test to move the application's clock through {@code /belfry/virtual-time}, then fire
 * exactly at their due instant, audited as on the real clock. {@link CartExampleIT} runs the same
 * WAR on the real clock, where that path does not exist.
 */
@ExtendWith(ArquillianExtension.class)
class CartOnVirtualTimeIT {

  /** cart.abandon-after on the test servers (arquillian.xml). */
  private static final Duration ABANDON_AFTER = Duration.ofSeconds(3);

  @Deployment(name = "belfry", order = 1, testable = false)
  static WebArchive belfry() {
    return ExampleServer.built(WebArchive.class, "belfry.war");
  }

  @Deployment(name = "cart", order = 2, testable = false)
  static WebArchive cart() {
    return ShrinkWrap.create(WebArchive.class, "cart-on-virtual-time.war")
        .merge(ExampleServer.built(WebArchive.class, "cart.war"));
  }

  @ArquillianResource
  @OperateOnDeployment("belfry")
  URL belfry;

  @ArquillianResource
  @OperateOnDeployment("cart")
  URL cart;

  @Test
  void cartsWaitForTheTestsClock_thenFireAtTheirDueInstant_audited() throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    String replaced = "r-" + run;
    String left = "l-" + run;
    String checkedOut = "c-" + run;

    ExampleServer.jsonList(cart, "api/carts/abandoned"); // starts the application
    Instant start = Instant.parse(clock("GET", "").getString("now"));
    ExampleServer.addToCart(cart, replaced, "book");
    ExampleServer.addToCart(cart, replaced, "pen");
    ExampleServer.addToCart(cart, left, "lamp");
    ExampleServer.addToCart(cart, checkedOut, "mug");
    assertThat(call("POST", cart, "api/carts/" + checkedOut + "/checkout").statusCode())
        .isEqualTo(204);

    // Longer than abandon-after on the real clock: nothing fires, virtual time stood still.
    Thread.sleep(ABANDON_AFTER.plusSeconds(1).toMillis());
    JsonObject still = clock("GET", "");
    assertThat(Instant.parse(still.getString("now"))).isEqualTo(start);
    assertThat(Instant.parse(still.getString("nextDue"))).isEqualTo(start.plus(ABANDON_AFTER));
    assertThat(ExampleServer.cartFires(cart, replaced)).isEmpty();

    JsonObject early = clock("POST", "?advanceBy=" + ABANDON_AFTER.minusMillis(1));
    assertThat(early.getInt("delivered")).as("a millisecond before they are due").isZero();
    assertThat(ExampleServer.cartFires(cart, replaced)).isEmpty();

    JsonObject due = clock("POST", "?advanceBy=PT0.001S");
    assertThat(due.getInt("delivered")).as("the two abandoned carts, on the call").isEqualTo(2);
    assertThat(Instant.parse(due.getString("now"))).isEqualTo(start.plus(ABANDON_AFTER));
    assertThat(ExampleServer.cartFires(cart, replaced))
        .singleElement()
        .satisfies(fire -> assertThat(fire.getString("payload")).contains("\"lastItem\":\"pen\""));
    assertThat(ExampleServer.cartFires(cart, left)).hasSize(1);
    assertThat(ExampleServer.cartFires(cart, checkedOut))
        .as("a checked-out cart never fires")
        .isEmpty();

    JsonObject later = clock("POST", "?advanceBy=PT30M");
    assertThat(later.getInt("delivered")).as("half an hour later: nothing more").isZero();

    ExampleServer.await(
        "the replaced cart's fire in the audit",
        () -> ExampleServer.auditTypes(belfry, "cart", "cart-" + replaced).contains("FIRED"));
    assertThat(ExampleServer.auditTypes(belfry, "cart", "cart-" + replaced))
        .containsExactlyInAnyOrder("SET", "REPLACED", "FIRED");
    assertThat(ExampleServer.auditTypes(belfry, "cart", "cart-" + checkedOut))
        .containsExactlyInAnyOrder("SET", "CANCELLED");
  }

  @Test
  void badInput_isA400NamingTheParameter_andTimeDoesNotMove() {
    Instant before = Instant.parse(clock("GET", "").getString("now"));
    assertBadRequest("?advanceBy=half-an-hour", "advanceBy");
    assertBadRequest("?advanceBy=-PT1S", "advanceBy");
    assertBadRequest("?advanceTo=2020-01-01T00:00:00Z", "advanceTo");
    assertBadRequest("?advanceTo=tomorrow", "advanceTo");
    assertBadRequest("?advanceBy=PT1S&advanceTo=2100-01-01T00:00:00Z", "advanceBy");
    assertThat(Instant.parse(clock("GET", "").getString("now"))).isEqualTo(before);
  }

  @Test
  void applicationsNotNamedBySwitch_answer404_andRunOnTheRealClock() {
    assertThat(call("GET", belfry, "belfry/virtual-time").statusCode())
        .as("belfry.war is not named by -Dbelfry.virtual-time")
        .isIn(401, 403, 404);
    assertThat(call("POST", belfry, "belfry/virtual-time?advanceBy=P1D").statusCode())
        .isIn(401, 403, 404);
  }

  private void assertBadRequest(String query, String field) {
    HttpResponse<String> answer = call("POST", cart, "belfry/virtual-time" + query);
    assertThat(answer.statusCode()).as(query + ": " + answer.body()).isEqualTo(400);
    assertThat(read(answer.body()).getString("field")).isEqualTo(field);
  }

  private JsonObject clock(String method, String query) {
    HttpResponse<String> answer = call(method, cart, "belfry/virtual-time" + query);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return read(answer.body());
  }

  private static JsonObject read(String body) {
    try (JsonReader reader = Json.createReader(new StringReader(body))) {
      return reader.readObject();
    }
  }
}
