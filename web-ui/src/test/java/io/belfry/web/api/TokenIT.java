package io.belfry.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.api.ApiClient.Answer;
import io.belfry.web.api.ApiClient.Credentials;
import io.belfry.web.foundation.Deployments;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.URL;
import java.time.Duration;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * API tokens over real HTTP: an admin creates one (shown once), a client sends it as {@code
 * Authorization: Bearer} with the token's roles, the audit names it, the listing never shows it,
 * and a revoked token is refused on its next request. Bad bodies name the field; viewers cannot
 * manage tokens.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class TokenIT {

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.belfryWar();
  }

  @ArquillianResource URL base;

  @Test
  void token_createUseListRevoke() {
    ApiClient admin = new ApiClient(base);
    String name = "ci-" + UUID.randomUUID().toString().substring(0, 8);
    Answer created =
        admin.post("/tokens", "{\"name\": \"" + name + "\", \"roles\": [\"belfry-admin\"]}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    String token = created.json().getString("token");
    String id = created.json().getString("id");
    assertThat(token).startsWith("bft_").hasSizeGreaterThan(40);

    ApiClient client = admin.as(Credentials.bearer(token));
    String key = "token-" + UUID.randomUUID();
    Answer set = client.put("/reminders/default/" + key, "{\"delay\": \"PT1H\"}");
    assertThat(set.status()).as(set.body()).isEqualTo(201);
    ApiClient.await(
        "the SET in the audit", Duration.ofSeconds(30), () -> !admin.audit(key, "SET").isEmpty());
    assertThat(admin.audit(key, "SET"))
        .singleElement()
        .satisfies(r -> assertThat(r.getString("principal")).isEqualTo("token:" + name));

    JsonObject listed =
        admin.get("/tokens").json().getJsonArray("items").stream()
            .map(JsonValue::asJsonObject)
            .filter(t -> t.getString("id").equals(id))
            .findFirst()
            .orElseThrow();
    assertThat(listed.containsKey("token")).as("the token is shown once only").isFalse();
    assertThat(listed.getString("name")).isEqualTo(name);
    assertThat(listed.getString("lastUsedAt", null)).as("last use recorded").isNotNull();

    assertThat(admin.delete("/tokens/" + id).status()).isEqualTo(204);
    assertThat(client.get("/reminders/default/" + key).status())
        .as("revoked: refused at once")
        .isEqualTo(401);
    assertThat(admin.delete("/tokens/" + id).status()).isEqualTo(404);
  }

  @Test
  void viewerToken_readsButChangesNothing() {
    ApiClient admin = new ApiClient(base);
    Answer created =
        admin.post("/tokens", "{\"name\": \"reader\", \"roles\": [\"belfry-viewer\"]}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    ApiClient reader = admin.as(Credentials.bearer(created.json().getString("token")));
    try {
      assertThat(reader.get("/audit?limit=1").status()).isEqualTo(200);
      assertThat(reader.put("/reminders/default/nope", "{\"delay\": \"PT1H\"}").status())
          .isEqualTo(403);
      assertThat(reader.get("/tokens").status()).as("tokens are admins' business").isEqualTo(403);
    } finally {
      admin.delete("/tokens/" + created.json().getString("id"));
    }
  }

  @Test
  void unknownOrWrongToken_401_passwordAsTokenRefused() {
    ApiClient anyone = new ApiClient(base).as(Credentials.bearer("bft_" + UUID.randomUUID()));
    assertThat(anyone.get("/audit?limit=1").status()).isEqualTo(401);
    ApiClient passwordAsToken =
        new ApiClient(base).as(Credentials.bearer(ApiClient.ADMIN.password()));
    assertThat(passwordAsToken.get("/audit?limit=1").status()).isEqualTo(401);
  }

  @Test
  void badBodies_400NamingTheField_nothingCreated() {
    ApiClient admin = new ApiClient(base);
    int before = admin.get("/tokens").json().getJsonArray("items").size();
    assertThat(admin.post("/tokens", "{\"name\": \"x\", \"roles\": [\"root\"]}").violationFields())
        .containsExactly("roles");
    assertThat(admin.post("/tokens", "{\"roles\": [\"belfry-viewer\"]}").violationFields())
        .containsExactly("name");
    assertThat(
            admin.post("/tokens", "{\"name\": \"x\", \"roles\": [], \"ttl\": 1}").violationFields())
        .containsExactly("ttl");
    assertThat(
            admin.post("/tokens", "{\"name\": \"a b\", \"roles\": [\"belfry-viewer\"]}").status())
        .isEqualTo(400);
    assertThat(admin.get("/tokens").json().getJsonArray("items")).hasSize(before);
  }
}
