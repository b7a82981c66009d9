package io.belfry.web.api;

import static io.belfry.web.api.ApiClient.segment;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.api.ApiClient.Answer;
import io.belfry.web.foundation.Deployments;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every endpoint of /belfry/api/v1 over HTTP, with its statuses and error shapes. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ReminderApiIT {

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.belfryWar();
  }

  @ArquillianResource URL base;

  private ApiClient api;
  private String namespace;

  @BeforeEach
  void client() {
    api = new ApiClient(base);
    namespace = "api-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private String path(String key) {
    return "/reminders/" + namespace + "/" + segment(key);
  }

  @Test
  void put_newThenReplace_201Then200_getReturnsTheRepresentation() {
    Answer created =
        api.put(
            path("order 42/ship"),
            "{\"fireAt\": \"2099-01-01T09:00:00+01:00\", \"payload\": {\"order\": 42}}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    JsonObject first = created.json();
    assertThat(first.getString("namespace")).isEqualTo(namespace);
    assertThat(first.getString("key")).isEqualTo("order 42/ship");
    assertThat(first.getString("state")).isEqualTo("PENDING");
    assertThat(first.getString("nextFireAt")).isEqualTo("2099-01-01T08:00:00Z");
    assertThat(first.getString("schedule")).isEqualTo("once");
    assertThat(first.getJsonObject("payload").getInt("order")).isEqualTo(42);
    assertThat(first.getString("misfire")).isEqualTo("FIRE_ONCE");
    assertThat(first.getString("delivery")).isEqualTo("AT_MOST_ONCE");
    assertThat(first.getInt("occurrence")).isEqualTo(1);
    for (String field : List.of("until", "maxOccurrences", "createdAt", "updatedAt", "version")) {
      assertThat(first).containsKey(field);
    }

    Answer replaced =
        api.put(
            path("order 42/ship"),
            "{\"delay\": \"PT1H\", \"every\": \"PT15M\", \"until\": \"2099-12-01T00:00:00Z\","
                + " \"maxOccurrences\": 10}");
    assertThat(replaced.status()).as(replaced.body()).isEqualTo(200);
    JsonObject second = replaced.json();
    assertThat(second.getJsonNumber("version").longValue())
        .isGreaterThan(first.getJsonNumber("version").longValue());
    assertThat(second.getString("schedule")).isEqualTo("every PT15M");
    assertThat(second.getString("every")).isEqualTo("PT15M");
    assertThat(second.getString("until")).isEqualTo("2099-12-01T00:00:00Z");
    assertThat(second.getInt("maxOccurrences")).isEqualTo(10);
    assertThat(second.get("payload")).isEqualTo(JsonValue.NULL);

    Answer read = api.get(path("order 42/ship"));
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.contentType()).startsWith("application/json");
    // the PUT's representation, plus the node that fires it (only a single GET names it)
    assertThat(read.json()).containsEntry("owner", Json.createValue("it-node"));
    assertThat(Json.createObjectBuilder(read.json()).remove("owner").build()).isEqualTo(second);
  }

  @Test
  void put_cronAndRepeat_carryTheirFields() {
    JsonObject cron =
        api.put(path("digest"), "{\"cron\": \"0 9 * * MON-FRI\", \"zone\": \"Europe/Paris\"}")
            .json();
    assertThat(cron.getString("schedule")).isEqualTo("cron 0 9 * * MON-FRI Europe/Paris");
    assertThat(cron.getString("cron")).isEqualTo("0 9 * * MON-FRI");
    assertThat(cron.getString("zone")).isEqualTo("Europe/Paris");

    Answer repeat = api.put(path("poll"), "{\"repeat\": \"R5/2099-01-01T09:00:00Z/PT1H\"}");
    assertThat(repeat.status()).as(repeat.body()).isEqualTo(201);
    assertThat(repeat.json().getString("repeat")).isEqualTo("R5/2099-01-01T09:00:00Z/PT1H");
    assertThat(repeat.json().getString("nextFireAt")).isEqualTo("2099-01-01T09:00:00Z");
  }

  @Test
  void get_delete_missingAndPresent() {
    assertThat(api.get(path("nope")).status()).isEqualTo(404);
    assertThat(api.get(path("nope")).problem().getString("type"))
        .isEqualTo("urn:belfry:problem:reminder-not-found");
    assertThat(api.delete(path("nope")).status()).isEqualTo(404);
    api.delete(path("nope")).problem();

    api.put(path("gone"), "{\"delay\": \"PT1H\"}");
    assertThat(api.delete(path("gone")).status()).isEqualTo(204);
    assertThat(api.get(path("gone")).status()).isEqualTo(404);
    assertThat(api.delete(path("gone")).status()).isEqualTo(404);
  }

  @Test
  void list_pagesWithCursorAndFilters() {
    for (int i = 0; i < 5; i++) {
      assertThat(api.put(path("page-" + i), "{\"delay\": \"PT" + (i + 1) + "H\"}").status())
          .isEqualTo(201);
    }
    api.put(path("other"), "{\"delay\": \"PT1H\"}");

    List<String> keys = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      String query = "/reminders?namespace=" + namespace + "&prefix=page-&limit=2";
      Answer page = api.get(cursor == null ? query : query + "&cursor=" + segment(cursor));
      assertThat(page.status()).as(page.body()).isEqualTo(200);
      JsonObject json = page.json();
      json.getJsonArray("items").forEach(item -> keys.add(item.asJsonObject().getString("key")));
      cursor = json.isNull("next") ? null : json.getString("next");
      pages++;
    } while (cursor != null);
    assertThat(keys).containsExactly("page-0", "page-1", "page-2", "page-3", "page-4");
    assertThat(pages).isEqualTo(3);

    String dueBefore = segment(Instant.now().plusSeconds(2 * 3600 + 60).toString());
    Answer due =
        api.get("/reminders?namespace=" + namespace + "&state=PENDING&dueBefore=" + dueBefore);
    assertThat(due.json().getJsonArray("items")).hasSize(3); // page-0, page-1, other
  }

  @Test
  void list_badParameters_400NamingEachParameter() {
    Answer bad = api.get("/reminders?namespace=x&state=NOPE&limit=abc&dueBefore=yesterday");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.violationFields()).containsExactly("dueBefore", "limit", "state");

    assertThat(api.get("/reminders?prefix=a").violationFields()).containsExactly("prefix");
    assertThat(api.get("/reminders?limit=0").violationFields()).containsExactly("limit");
    assertThat(api.get("/audit?type=EXPLODED&since=x").violationFields())
        .containsExactly("since", "type");
    assertThat(api.get("/audit?cursor=zzz").violationFields()).containsExactly("cursor");
  }

  @Test
  void put_invalidBodies_400NamingTheFields_nothingStored() {
    assertThat(
            api.put(path("v"), "{\"fireAt\": \"2099-01-01T00:00:00Z\", \"delay\": \"PT1M\"}")
                .status())
        .isEqualTo(400);
    assertThat(api.put(path("v"), "{\"delay\": \"PT1M\", \"colour\": \"red\"}").violationFields())
        .containsExactly("colour");
    assertThat(api.put(path("v"), "{\"delay\": 5}").violationFields()).containsExactly("delay");
    assertThat(api.put(path("v"), "{\"delay\": \"PT1M\", \"cron\": \"61 * * * *\"}").status())
        .isEqualTo(400);
    assertThat(
            api.put(path("v"), "{\"delay\": \"PT1M\", \"zone\": \"Mars/Olympus\"}")
                .violationFields())
        .containsExactly("zone");
    assertThat(
            api.put(
                    path("v"),
                    "{\"delay\": \"PT1M\", \"misfire\": \"SKIP\", \"deadline\": \"PT1S\", \"maxOccurrences\": 0}")
                .violationFields())
        .containsExactly("maxOccurrences");
    assertThat(api.put(path("v"), "{\"delay\": ").problem().getString("detail"))
        .contains("malformed JSON");
    assertThat(api.put(path("v"), "[1, 2]").status()).isEqualTo(400);
    assertThat(api.put(path("v"), "").status()).isEqualTo(400);
    assertThat(
            api.put(path("v"), "{\"delay\": \"PT1M\", \"payload\": \"" + "x".repeat(70_000) + "\"}")
                .violationFields())
        .containsExactly("payload");
    Answer huge =
        api.put(path("v"), "{\"delay\": \"PT1M\", \"payload\": \"" + "x".repeat(1_100_000) + "\"}");
    assertThat(huge.status()).isEqualTo(413);
    huge.problem();
    Answer text = api.send("PUT", path("v"), "delay=PT1M", "text/plain");
    assertThat(text.status()).isEqualTo(415);
    text.problem();

    assertThat(api.put(path("k".repeat(600)), "{\"delay\": \"PT1M\"}").violationFields())
        .containsExactly("key");
    assertThat(api.put(path("tab\there"), "{\"delay\": \"PT1M\"}").violationFields())
        .containsExactly("key");
    assertThat(api.put("/reminders/bad%20namespace/k", "{\"delay\": \"PT1M\"}").violationFields())
        .containsExactly("namespace");

    assertThat(api.get(path("v")).status()).isEqualTo(404);
    assertThat(api.get("/reminders?namespace=" + namespace).json().getJsonArray("items")).isEmpty();
  }

  @Test
  void post_batch_setsEveryItem_answersCounts_aBadItemIsNamedAndNothingIsSet() {
    String batch = "/reminders/" + namespace;
    Answer first =
        api.send(
            "POST",
            batch,
            "{\"reminders\": [{\"key\": \"a\", \"delay\": \"PT1H\"},"
                + " {\"key\": \"b/c\", \"fireAt\": \"2099-01-01T09:00:00Z\", \"payload\": 7}]}",
            "application/json");
    assertThat(first.status()).as(first.body()).isEqualTo(200);
    assertThat(first.json().getInt("created")).isEqualTo(2);
    assertThat(first.json().getInt("replaced")).isZero();
    assertThat(api.get(path("b/c")).json().getString("nextFireAt"))
        .isEqualTo("2099-01-01T09:00:00Z");
    long versionOfA = api.get(path("a")).json().getJsonNumber("version").longValue();

    Answer second =
        api.send(
            "POST",
            batch,
            "{\"reminders\": [{\"key\": \"a\", \"delay\": \"PT1M\", \"every\": \"PT15M\"}, {\"key\": \"d\", \"delay\": \"PT1H\"}]}",
            "application/json");
    assertThat(second.status()).as(second.body()).isEqualTo(200);
    assertThat(second.json().getInt("created")).isEqualTo(1);
    assertThat(second.json().getInt("replaced")).isEqualTo(1);
    assertThat(api.get(path("a")).json().getJsonNumber("version").longValue())
        .isGreaterThan(versionOfA);

    // one answer names every bad item and field; the good items are not set either
    Answer bad =
        api.send(
            "POST",
            batch,
            "{\"reminders\": [{\"key\": \"e\", \"delay\": \"PT1M\"}, {\"key\": \"f\", \"delay\": 5},"
                + " {\"delay\": \"PT1M\"}, {\"key\": \"g\", \"cron\": \"61 * * * *\"},"
                + " {\"key\": \"e\", \"delay\": \"PT2M\"}, 3]}",
            "application/json");
    assertThat(bad.status()).as(bad.body()).isEqualTo(400);
    assertThat(bad.violationFields())
        .contains("reminders[1].delay", "reminders[2].key", "reminders[5]")
        .allMatch(field -> field.startsWith("reminders["));
    assertThat(api.get(path("e")).status()).isEqualTo(404);
    assertThat(api.get(path("g")).status()).isEqualTo(404);

    // checked by Bean Validation after the JSON was read: a repeated key, a bad cron
    Answer semantic =
        api.send(
            "POST",
            batch,
            "{\"reminders\": [{\"key\": \"h\", \"delay\": \"PT1M\"}, {\"key\": \"i\", \"cron\": \"61 * * * *\"},"
                + " {\"key\": \"h\", \"delay\": \"PT2M\"}]}",
            "application/json");
    assertThat(semantic.violationFields())
        .as(semantic.body())
        .contains("reminders[2].key")
        .anyMatch(field -> field.startsWith("reminders[1]."));
    assertThat(api.get(path("h")).status()).isEqualTo(404);

    String tooMany =
        "{\"reminders\": ["
            + String.join(
                ",", java.util.Collections.nCopies(1001, "{\"key\": \"x\", \"delay\": \"PT1M\"}"))
            + "]}";
    assertThat(api.send("POST", batch, tooMany, "application/json").violationFields())
        .containsExactly("reminders");
    assertThat(api.send("POST", batch, "{\"reminders\": []}", "application/json").violationFields())
        .containsExactly("reminders");
    assertThat(api.send("POST", batch, "{\"items\": []}", "application/json").violationFields())
        .containsExactly("items");

    api.ensureViewer();
    Answer viewer =
        api.as(ApiClient.VIEWER)
            .send(
                "POST",
                batch,
                "{\"reminders\": [{\"key\": \"v\", \"delay\": \"PT1M\"}]}",
                "application/json");
    assertThat(viewer.status()).isEqualTo(403);
    assertThat(api.get("/reminders?namespace=" + namespace).json().getJsonArray("items"))
        .hasSize(3);
  }

  @Test
  void unknownPathAndMethod_problemBodies() {
    Answer missing = api.get("/nothing-here");
    assertThat(missing.status()).isEqualTo(404);
    missing.problem();
    Answer method = api.send("POST", "/reminders", "{}", "application/json");
    assertThat(method.status()).isEqualTo(405);
    method.problem();
  }

  @Test
  void fire_isAuditedWithPrincipalAndLateness() throws Exception {
    String key = "audited-" + UUID.randomUUID();
    assertThat(api.put("/reminders/default/" + key, "{\"delay\": \"PT0.5S\"}").status())
        .isEqualTo(201);

    List<String> types = List.of();
    JsonObject page = null;
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < deadline) {
      page = api.get("/audit?namespace=default&key=" + segment(key)).json();
      types =
          page.getJsonArray("items").stream().map(i -> i.asJsonObject().getString("type")).toList();
      if (types.contains("FIRED")) {
        break;
      }
      Thread.sleep(200);
    }
    assertThat(types).as("newest first").containsExactly("FIRED", "SET");
    JsonObject fired = page.getJsonArray("items").getJsonObject(0);
    JsonObject set = page.getJsonArray("items").getJsonObject(1);
    assertThat(set.getString("principal")).isEqualTo(ApiClient.ADMIN.user());
    assertThat(fired.isNull("principal")).isTrue();
    assertThat(fired.getJsonNumber("latenessMs").longValue()).isGreaterThanOrEqualTo(0);
    assertThat(fired.getString("node")).isEqualTo("it-node");
    assertThat(fired.getJsonNumber("version").longValue())
        .isEqualTo(set.getJsonNumber("version").longValue());
    for (String field : List.of("namespace", "key", "occurrence", "dueAt", "at")) {
      assertThat(fired).containsKey(field);
    }

    JsonObject onlySets =
        api.get("/audit?namespace=default&key=" + segment(key) + "&type=SET").json();
    assertThat(onlySets.getJsonArray("items")).hasSize(1);
    assertThat(onlySets.isNull("next")).isTrue();
    assertThat(
            api.get("/audit?namespace=default&key=" + segment(key) + "&limit=1")
                .json()
                .isNull("next"))
        .isFalse();
  }

  @Test
  void cluster_listsThisNodeWithAllSegments() {
    api.put(path("armed"), "{\"delay\": \"PT1H\"}");
    JsonObject cluster = api.get("/cluster").json();
    assertThat(cluster.getString("coordinator")).isEqualTo("it-node");
    assertThat(cluster.getInt("totalSegments")).isEqualTo(256);
    JsonObject member = cluster.getJsonArray("members").getJsonObject(0);
    assertThat(member.getString("node")).isEqualTo("it-node");
    assertThat(member.getInt("primarySegments")).isEqualTo(256);
    assertThat(armed(cluster)).isGreaterThanOrEqualTo(1);
  }

  private static long armed(JsonObject cluster) {
    return cluster
        .getJsonArray("members")
        .getJsonObject(0)
        .getJsonNumber("armedReminders")
        .longValue();
  }

  @Test
  void users_badAccount_400_viewerCreated() {
    assertThat(
            api.put("/users/x", "{\"password\": \"short\", \"roles\": [\"belfry-viewer\"]}")
                .violationFields())
        .containsExactly("password");
    assertThat(
            api.put("/users/x", "{\"password\": \"long-enough-password\", \"roles\": [\"root\"]}")
                .status())
        .isEqualTo(400);
    api.ensureViewer();
    assertThat(api.get("/users").body()).contains(ApiClient.VIEWER.user());
  }

  @Test
  void metrics_scrapedFromTheManagementPort() throws Exception {
    api.put("/reminders/default/metric-" + UUID.randomUUID(), "{\"delay\": \"PT0.1S\"}");
    api.put(path("pending"), "{\"delay\": \"PT1H\"}");
    // the first scrape that sees a namespace registers its gauge, the next one shows it
    scrape();
    assertThat(scrape())
        .contains(
            "belfry_reminders_sets_total",
            "belfry_fires_total",
            "belfry_fire_lateness_seconds_count",
            "belfry_fire_lateness_p99_seconds",
            "belfry_segments_owned",
            "belfry_audit_queue_depth",
            pendingGauge(1));
  }

  @Test
  void metrics_pendingGaugeFollowsASetAndACancelAtOnce() throws Exception {
    api.put(path("first"), "{\"delay\": \"PT1H\"}");
    scrape();
    assertThat(scrape()).contains(pendingGauge(1));
    // counted as the engine applies each write, not by a periodic pass over the replica
    api.put(path("second"), "{\"delay\": \"PT1H\"}");
    assertThat(scrape()).contains(pendingGauge(2));
    assertThat(api.delete(path("first")).status()).isEqualTo(204);
    assertThat(scrape()).contains(pendingGauge(1));
  }

  private String pendingGauge(int count) {
    return "belfry_reminders_pending{WF_DEPLOYMENT=\"belfry.war\",namespace=\""
        + namespace
        + "\"} "
        + count
        + ".0";
  }

  private String scrape() throws Exception {
    HttpResponse<String> scrape =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://" + base.getHost() + ":9990/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(scrape.statusCode()).isEqualTo(200);
    return scrape.body();
  }
}
