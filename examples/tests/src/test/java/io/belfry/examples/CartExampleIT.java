package io.belfry.examples;

import static io.belfry.examples.ExampleServer.await;
import static io.belfry.examples.ExampleServer.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.console.Browser;
import jakarta.json.JsonObject;
import java.net.URL;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * examples/cart, the WAR its pom builds, deployed beside {@code belfry.war}: carts abandoned after
 * {@code cart.abandon-after} (PT1S on the test server, arquillian.xml). An add replaces the cart's
 * reminder, which fires once with the last add's payload; a checked-out cart never fires; the
 * namespace {@code cart} is in Belfry's audit and in the console's History.
 */
@ExtendWith(ArquillianExtension.class)
class CartExampleIT {

  @Deployment(name = "belfry", order = 1, testable = false)
  static WebArchive belfry() {
    return ExampleServer.built(WebArchive.class, "belfry.war");
  }

  @Deployment(name = "cart", order = 2, testable = false)
  static WebArchive cart() {
    return ExampleServer.built(WebArchive.class, "cart.war");
  }

  @ArquillianResource
  @OperateOnDeployment("belfry")
  URL belfry;

  @ArquillianResource
  @OperateOnDeployment("cart")
  URL cart;

  @Test
  void cart_replacedFiresOnceWithLastItem_checkedOutNever_auditedAndInHistory() throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    String replaced = "r-" + run;
    String left = "l-" + run;
    String checkedOut = "c-" + run;

    // the first request to a freshly deployed application starts it up: not between the two adds
    ExampleServer.jsonList(cart, "api/carts/abandoned");
    add(replaced, "book");
    add(replaced, "pen");
    add(left, "lamp");
    add(checkedOut, "mug");
    assertThat(call("POST", cart, "api/carts/" + checkedOut + "/checkout").statusCode())
        .isEqualTo(204);

    await(
        "both abandoned carts to fire",
        () -> fires(replaced).size() == 1 && fires(left).size() == 1);
    // the checked-out cart was due with the others: give a wrong fire, or a second one, time to
    // show
    Thread.sleep(3_000);
    assertThat(fires(replaced))
        .singleElement()
        .satisfies(fire -> assertThat(fire.getString("payload")).contains("\"lastItem\":\"pen\""));
    assertThat(fires(left)).hasSize(1);
    assertThat(fires(checkedOut)).as("a checked-out cart never fires").isEmpty();

    await(
        "the replaced cart's fire in the audit",
        () -> ExampleServer.auditTypes(belfry, "cart", "cart-" + replaced).contains("FIRED"));
    assertThat(ExampleServer.auditTypes(belfry, "cart", "cart-" + replaced))
        .containsExactlyInAnyOrder("SET", "REPLACED", "FIRED");
    assertThat(ExampleServer.auditTypes(belfry, "cart", "cart-" + checkedOut))
        .containsExactlyInAnyOrder("SET", "CANCELLED");

    try (Browser browser = Browser.openOrSkip(belfry)) {
      browser.login(ExampleServer.ADMIN, ExampleServer.ADMIN_PASSWORD);
      browser.open("history?namespace=cart&key=cart-" + replaced);
      browser.awaitText("FIRED");
      assertThat(browser.hasText("REPLACED")).as("the console's History of the cart").isTrue();
      browser.screenshot("cart-history");
    }
  }

  private void add(String cartId, String item) {
    assertThat(call("PUT", cart, "api/carts/" + cartId + "/items/" + item).statusCode())
        .isEqualTo(204);
  }

  /** The fires the application observed for this cart. */
  private List<JsonObject> fires(String cartId) {
    return ExampleServer.jsonList(cart, "api/carts/abandoned").stream()
        .filter(fire -> fire.getString("cart").equals(cartId))
        .toList();
  }
}
