package io.belfry.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.api.ApiClient.Answer;
import io.belfry.web.api.ApiClient.Credentials;
import io.belfry.web.foundation.Deployments;
import java.net.URL;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Password guessing: after 10 wrong passwords in a row a user is disabled on that node, and even
 * the right password is refused (WildFly's brute-force wrapper around belfry-realm, WFCORE-7192: 15
 * minutes by default); other users are not affected. A user of its own, so that the test admin is
 * never locked.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class BruteForceIT {

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.belfryWar();
  }

  @ArquillianResource URL base;

  @Test
  void tenWrongPasswordsInARow_userDisabled_rightPasswordRefused_othersUnaffected() {
    ApiClient admin = new ApiClient(base);
    String name = "guessed-" + UUID.randomUUID().toString().substring(0, 8);
    String password = "the-right-password-1";
    Answer created =
        admin.put(
            "/users/" + name,
            "{\"password\": \"" + password + "\", \"roles\": [\"belfry-viewer\"]}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    ApiClient user = admin.as(new Credentials(name, password));
    assertThat(user.get("/audit?limit=1").status()).as("the user can log in").isEqualTo(200);

    ApiClient guesser = admin.as(new Credentials(name, "wrong-guess"));
    for (int i = 0; i < 10; i++) {
      assertThat(guesser.get("/audit?limit=1").status()).isEqualTo(401);
    }

    assertThat(user.get("/audit?limit=1").status())
        .as("disabled: the right password is refused too")
        .isEqualTo(401);
    assertThat(admin.get("/audit?limit=1").status()).as("others unaffected").isEqualTo(200);
    admin.delete("/users/" + name);
  }
}
