package io.belfry.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.api.ApiClient.Answer;
import io.belfry.web.api.ApiClient.Credentials;
import io.belfry.web.foundation.Deployments;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every endpoint × {anonymous, viewer, admin, wrong password}: anonymous and wrong passwords get
 * {@code 401} (health excepted), viewers read but change nothing ({@code 403}), admins do
 * everything. Every refusal has a problem body. This also proves the WAR's security domain exists:
 * a missing one would leave every URL open.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class AuthMatrixIT {

  private static final Credentials WRONG_PASSWORD = new Credentials("it-admin", "not-the-password");

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.belfryWar();
  }

  @ArquillianResource URL base;

  private record Call(
      String method,
      String path,
      String body,
      boolean changes,
      boolean adminOnly,
      int adminStatus) {

    Call(String method, String path, String body, boolean changes, boolean adminOnly) {
      this(
          method,
          path,
          body,
          changes,
          adminOnly,
          method.equals("PUT") ? 201 : method.equals("DELETE") ? 204 : 200);
    }
  }

  @Test
  void everyEndpoint_byRole() {
    ApiClient api = new ApiClient(base);
    api.ensureViewer();
    String key = "auth-" + UUID.randomUUID();
    String reminder = "/reminders/default/" + key;
    String user = "/users/auth-user-" + UUID.randomUUID().toString().substring(0, 8);
    String userBody = "{\"password\": \"a-long-enough-password\", \"roles\": [\"belfry-viewer\"]}";
    String sink = "/namespaces/auth-" + UUID.randomUUID().toString().substring(0, 8) + "/sink";
    String sinkBody =
        "{\"webhookUrl\": \"http://127.0.0.1:9/never\", \"secret\": \"sixteen-chars-ok\"}";
    String batchKey = "auth-batch-" + UUID.randomUUID();
    String tokenBody = "{\"name\": \"auth-matrix\", \"roles\": [\"belfry-viewer\"]}";
    // tokens: a viewer's and an admin's, beside the passwords; and one revoked before use
    Credentials viewerToken = token(api, "belfry-viewer");
    Credentials adminToken = token(api, "belfry-admin");
    Credentials revokedToken = token(api, "belfry-admin");
    revoke(api, revokedToken);
    List<Call> calls =
        List.of(
            new Call("PUT", reminder, "{\"delay\": \"PT1H\"}", true, false),
            new Call(
                "POST",
                "/reminders/default",
                "{\"reminders\": [{\"key\": \"" + batchKey + "\", \"delay\": \"PT1H\"}]}",
                true,
                false),
            new Call(
                "POST",
                "/reminders/default/no-such-dead-letter/redelivery",
                null,
                true,
                false,
                404),
            new Call("GET", "/tokens", null, false, true),
            new Call("POST", "/tokens", tokenBody, true, true, 201),
            new Call("GET", reminder, null, false, false),
            new Call("GET", "/reminders?namespace=default", null, false, false),
            new Call("GET", "/audit?namespace=default", null, false, false),
            new Call("GET", "/cluster", null, false, false),
            new Call("DELETE", reminder, null, true, false),
            new Call("GET", "/users", null, false, true),
            new Call("PUT", user, userBody, true, true),
            new Call("DELETE", user, null, true, true),
            new Call("PUT", sink, sinkBody, true, true),
            new Call("GET", sink, null, false, true),
            new Call("DELETE", sink, null, true, true));

    List<String> wrong = new ArrayList<>();
    for (int i = 0; i < calls.size(); i++) {
      Call call = calls.get(i);
      int viewer = call.changes() || call.adminOnly() ? 403 : 200;
      // refusals first: they must change nothing, so the admin's call still finds its state
      expect(wrong, call, api.as(ApiClient.ANONYMOUS), 401);
      expect(wrong, call, api.as(WRONG_PASSWORD), 401);
      expect(wrong, call, api.as(revokedToken), 401);
      expect(wrong, call, api.as(ApiClient.VIEWER), viewer);
      expect(wrong, call, api.as(viewerToken), viewer);
      // each call succeeds once: by turns with the admin's password and the admin's token
      expect(wrong, call, api.as(i % 2 == 0 ? ApiClient.ADMIN : adminToken), call.adminStatus());
    }
    Answer health = api.as(ApiClient.ANONYMOUS).get("/health");
    if (health.status() != 200) {
      wrong.add("GET /health anonymous: " + health.status());
    }
    assertThat(wrong).isEmpty();
  }

  private static Credentials token(ApiClient api, String role) {
    Answer created =
        api.post("/tokens", "{\"name\": \"auth-matrix\", \"roles\": [\"" + role + "\"]}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return new Credentials(created.json().getString("id"), null, created.json().getString("token"));
  }

  private static void revoke(ApiClient api, Credentials token) {
    assertThat(api.delete("/tokens/" + token.user()).status()).isEqualTo(204);
  }

  private static void expect(List<String> wrong, Call call, ApiClient client, int status) {
    Answer answer =
        client.send(
            call.method(),
            call.path(),
            call.body(),
            call.body() == null ? null : "application/json");
    if (answer.status() != status) {
      wrong.add(
          call.method()
              + " "
              + call.path()
              + " expected "
              + status
              + ", got "
              + answer.status()
              + " "
              + answer.body());
      return;
    }
    if (status >= 400) {
      answer.problem();
    }
  }
}
