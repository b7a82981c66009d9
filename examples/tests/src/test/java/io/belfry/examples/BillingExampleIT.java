package io.belfry.examples;

import static io.belfry.examples.ExampleServer.await;
import static io.belfry.examples.ExampleServer.call;
import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.JsonObject;
import java.net.URL;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * examples/billing, the EAR its poms build (an EJB module that sets and observes the reminders, a
 * WAR with their REST API, Belfry in the EAR's lib/), deployed beside {@code belfry.war}: a
 * re-issued invoice is chased once with its corrected amount, a paid one never, and the namespace
 * {@code billing} is in Belfry's audit.
 */
@ExtendWith(ArquillianExtension.class)
class BillingExampleIT {

  @Deployment(name = "belfry", order = 1, testable = false)
  static WebArchive belfry() {
    return ExampleServer.built(WebArchive.class, "belfry.war");
  }

  @Deployment(name = "billing", order = 2, testable = false)
  static EnterpriseArchive billing() {
    return ExampleServer.built(EnterpriseArchive.class, "billing.ear");
  }

  @ArquillianResource
  @OperateOnDeployment("belfry")
  URL belfry;

  @Test
  void invoice_reissuedChasedOnceWithNewAmount_paidNever_audited() throws Exception {
    URL billing = new URL(belfry, "/billing/");
    String run = UUID.randomUUID().toString().substring(0, 8);
    String reissued = "r-" + run;
    String unpaid = "u-" + run;
    String paid = "p-" + run;
    // due after the four requests below (the first one warms the application up)
    Instant due = Instant.now().plusSeconds(10);

    issue(billing, reissued, "100.00", due);
    issue(billing, reissued, "90.00", due);
    issue(billing, unpaid, "15.00", due);
    issue(billing, paid, "42.00", due);
    assertThat(call("POST", billing, "api/invoices/" + paid + "/payment").statusCode())
        .isEqualTo(204);

    await(
        "both unpaid invoices to be chased",
        () -> chased(billing, reissued).size() == 1 && chased(billing, unpaid).size() == 1,
        () -> "; chased so far: " + call("GET", billing, "api/invoices/overdue").body());
    // the paid invoice was due with the others: give a wrong fire, or a second one, time to show
    Thread.sleep(3_000);
    assertThat(chased(billing, reissued))
        .singleElement()
        .satisfies(fire -> assertThat(fire.getString("payload")).contains("\"amount\":\"90.00\""));
    assertThat(chased(billing, unpaid)).hasSize(1);
    assertThat(chased(billing, paid)).as("a paid invoice is never chased").isEmpty();

    await(
        "the re-issued invoice's fire in the audit",
        () -> ExampleServer.auditTypes(belfry, "billing", "invoice-" + reissued).contains("FIRED"));
    assertThat(ExampleServer.auditTypes(belfry, "billing", "invoice-" + reissued))
        .containsExactlyInAnyOrder("SET", "REPLACED", "FIRED");
    assertThat(ExampleServer.auditTypes(belfry, "billing", "invoice-" + paid))
        .containsExactlyInAnyOrder("SET", "CANCELLED");
  }

  private static void issue(URL billing, String invoice, String amount, Instant due) {
    assertThat(
            call("PUT", billing, "api/invoices/" + invoice + "?amount=" + amount + "&due=" + due)
                .statusCode())
        .isEqualTo(204);
  }

  /** The dunning fires the application observed for this invoice. */
  private static List<JsonObject> chased(URL billing, String invoice) {
    return ExampleServer.jsonList(billing, "api/invoices/overdue").stream()
        .filter(fire -> fire.getString("invoice").equals(invoice))
        .toList();
  }
}
