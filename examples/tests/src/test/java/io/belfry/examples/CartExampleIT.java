package io.belfry.examples;

import static io.belfry.examples.ExampleServer.await;
import static io.belfry.examples.ExampleServer.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.console.Browser;
import java.net.URL;
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
    ExampleServer.addToCart(cart, replaced, "book");
    ExampleServer.addToCart(cart, replaced, "pen");
    ExampleServer.addToCart(cart, left, "lamp");
    ExampleServer.addToCart(cart, checkedOut, "mug");
    assertThat(call("POST", cart, "api/carts/" + checkedOut + "/checkout").statusCode())
        .isEqualTo(204);

    assertThat(call("GET", cart, "belfry/virtual-time").statusCode())
        .as("on the real clock the application's virtual-time path answers 404")
        .isEqualTo(404);

    await(
        "both abandoned carts to fire",
        () ->
            ExampleServer.cartFires(cart, replaced).size() == 1
                && ExampleServer.cartFires(cart, left).size() == 1);
    // the checked-out cart was due with the others: give a wrong fire, or a second one, time to
    // show
    Thread.sleep(3_000);
    assertThat(ExampleServer.cartFires(cart, replaced))
        .singleElement()
        .satisfies(fire -> assertThat(fire.getString("payload")).contains("\"lastItem\":\"pen\""));
    assertThat(ExampleServer.cartFires(cart, left)).hasSize(1);
    assertThat(ExampleServer.cartFires(cart, checkedOut))
        .as("a checked-out cart never fires")
        .isEmpty();

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
}
