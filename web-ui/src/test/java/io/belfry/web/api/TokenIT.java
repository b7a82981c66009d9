package io.belfry.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.api.ApiClient.Answer;
import io.belfry.web.api.ApiClient.Credentials;
import io.belfry.web.foundation.Deployments;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
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
 * and a revoked token is refused on its next request. A token bound to namespaces reaches only
 * those; an expiring one is refused from its expiry. Bad bodies name the field; viewers cannot
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
  void namespaceBoundToken_reachesOnlyItsNamespaces() {
    ApiClient admin = new ApiClient(base);
    String mine = "bound-" + UUID.randomUUID().toString().substring(0, 8);
    Answer created =
        admin.post(
            "/tokens",
            "{\"name\": \"shop-client\", \"roles\": [\"belfry-admin\"], \"namespaces\": [\""
                + mine
                + "\"]}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.json().getJsonArray("namespaces").getString(0)).isEqualTo(mine);
    ApiClient bound = admin.as(Credentials.bearer(created.json().getString("token")));
    try {
      Answer own = bound.put("/reminders/" + mine + "/k1", "{\"delay\": \"PT1H\"}");
      assertThat(own.status()).as(own.body()).isEqualTo(201);
      assertThat(bound.get("/reminders/" + mine + "/k1").status()).isEqualTo(200);
      assertThat(bound.get("/reminders?namespace=" + mine).status()).isEqualTo(200);
      assertThat(bound.get("/audit?namespace=" + mine).status()).isEqualTo(200);
      assertThat(bound.get("/cluster").status()).as("counts only").isEqualTo(200);

      Answer other = bound.put("/reminders/default/k1", "{\"delay\": \"PT1H\"}");
      assertThat(other.status()).as(other.body()).isEqualTo(403);
      assertThat(other.body()).contains("namespace default");
      assertThat(admin.get("/reminders/default/k1").status())
          .as("the refused PUT changed nothing")
          .isEqualTo(404);
      assertThat(bound.get("/reminders").status())
          .as("a listing of every namespace")
          .isEqualTo(403);
      assertThat(bound.get("/audit?limit=1").status()).isEqualTo(403);
      assertThat(bound.get("/audit?namespace=default").status()).isEqualTo(403);
      assertThat(bound.delete("/namespaces/default/sink").status()).isEqualTo(403);
      assertThat(bound.get("/users").status()).as("users are outside any namespace").isEqualTo(403);
      assertThat(bound.post("/tokens", "{\"name\": \"escape\", \"roles\": [\"belfry-admin\"]}"))
          .satisfies(a -> assertThat(a.status()).as("no unbound token minted").isEqualTo(403));
    } finally {
      admin.delete("/tokens/" + created.json().getString("id"));
    }
  }

  @Test
  void expiringToken_worksUntilItsExpiry_thenRefused() {
    ApiClient admin = new ApiClient(base);
    Instant expiry = Instant.now().plusSeconds(3);
    Answer created =
        admin.post(
            "/tokens",
            "{\"name\": \"short\", \"roles\": [\"belfry-viewer\"], \"expiresAt\": \""
                + expiry
                + "\"}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(Instant.parse(created.json().getString("expiresAt"))).isEqualTo(expiry);
    ApiClient client = admin.as(Credentials.bearer(created.json().getString("token")));
    try {
      assertThat(client.get("/audit?limit=1").status()).isEqualTo(200);
      ApiClient.await(
          "the token to expire",
          Duration.ofSeconds(30),
          () -> client.get("/audit?limit=1").status() == 401);
      assertThat(Instant.now()).isAfterOrEqualTo(expiry);
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
    String viewer = "{\"name\": \"x\", \"roles\": [\"belfry-viewer\"], ";
    assertThat(
            admin
                .post("/tokens", viewer + "\"namespaces\": [\"not a namespace\"]}")
                .violationFields())
        .containsExactly("namespaces");
    assertThat(admin.post("/tokens", viewer + "\"namespaces\": []}").violationFields())
        .containsExactly("namespaces");
    assertThat(admin.post("/tokens", viewer + "\"namespaces\": \"shop\"}").violationFields())
        .containsExactly("namespaces");
    assertThat(
            admin
                .post("/tokens", viewer + "\"expiresAt\": \"2020-01-01T00:00:00Z\"}")
                .violationFields())
        .containsExactly("expiresAt");
    assertThat(admin.post("/tokens", viewer + "\"expiresAt\": \"tomorrow\"}").violationFields())
        .containsExactly("expiresAt");
    assertThat(admin.get("/tokens").json().getJsonArray("items")).hasSize(before);
  }
}
