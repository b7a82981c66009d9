package io.belfry.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.api.ApiClient.Answer;
import io.belfry.web.api.BadRequests.Request;
import io.belfry.web.foundation.Deployments;
import jakarta.json.JsonObject;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 10,000 generated bad requests ({@link BadRequests}, fixed seed, overridable with {@code
 * -Dfuzz.seed}) as admin: every answer is a 4xx with a problem body (and violations for a 400),
 * none is a 2xx or a 5xx, and nothing was stored.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@Tag("slow")
class ApiFuzzIT {

  private static final int REQUESTS = Integer.getInteger("fuzz.requests", 10_000);
  private static final long SEED = Long.getLong("fuzz.seed", 20261121L);
  private static final int THREADS = 2;

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.belfryWar();
  }

  @ArquillianResource URL base;

  @Test
  void badRequests_all4xxWithProblemBody_nothingStored() throws Exception {
    ApiClient api = new ApiClient(base);
    String before = storedInFuzzNamespace(api);
    BadRequests generator = new BadRequests(SEED);
    List<Request> requests = new ArrayList<>(generator.oneOfEach());
    while (requests.size() < REQUESTS) {
      requests.add(generator.next());
    }

    Map<String, AtomicInteger> kinds = new ConcurrentHashMap<>();
    List<String> wrong = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int first = t;
        done.add(
            pool.submit(
                () -> {
                  for (int i = first; i < requests.size(); i += THREADS) {
                    check(api, requests.get(i), kinds, wrong);
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }

    System.out.printf("ApiFuzzIT: %d requests by kind %s%n", requests.size(), new TreeMap<>(kinds));
    assertThat(wrong).as("requests not answered with a 4xx problem").isEmpty();
    assertThat(kinds.values().stream().mapToInt(AtomicInteger::get).sum()).isEqualTo(REQUESTS);
    assertThat(storedInFuzzNamespace(api)).as("nothing stored").isEqualTo(before);
  }

  private static void check(
      ApiClient api, Request request, Map<String, AtomicInteger> kinds, List<String> wrong) {
    Answer answer =
        api.send(request.method(), request.path(), request.body(), request.contentType());
    kinds.computeIfAbsent(request.kind(), k -> new AtomicInteger()).incrementAndGet();
    String what =
        request.kind()
            + ": "
            + request.method()
            + " "
            + abbreviate(request.path())
            + " "
            + abbreviate(request.body())
            + " -> "
            + answer.status()
            + " "
            + abbreviate(answer.body());
    if (answer.status() < 400 || answer.status() >= 500) {
      wrong.add(what);
      return;
    }
    try {
      JsonObject problem = answer.problem();
      if (answer.status() == 400 && problem.getJsonArray("violations").isEmpty()) {
        wrong.add("no violations: " + what);
      }
    } catch (AssertionError | RuntimeException e) {
      wrong.add("not a problem body (" + e.getMessage() + "): " + what);
    }
  }

  private static String storedInFuzzNamespace(ApiClient api) {
    Answer list = api.get("/reminders?limit=1000&namespace=" + BadRequests.NAMESPACE);
    assertThat(list.status()).isEqualTo(200);
    return list.json().getJsonArray("items").toString();
  }

  private static String abbreviate(String text) {
    if (text == null) {
      return "";
    }
    return text.length() <= 120 ? text : text.substring(0, 120) + "…(" + text.length() + ")";
  }
}
