package io.belfry.reminders.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.api.ReminderNotFoundException;
import io.belfry.reminders.api.Schedule;
import io.belfry.reminders.engine.TestCluster.Delivered;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Firing across three embedded members sharing one replicated cache. Each test uses its own
 * namespace so they can share the cluster; assertions are "no duplicates" and "no misses".
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterFiringTest {

  private TestCluster cluster;

  @BeforeAll
  void startCluster(@TempDir Path dir) {
    cluster = new TestCluster(dir).start();
  }

  @AfterAll
  void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void fire_threeHundredReminders_eachFiresExactlyOnceAndOwnershipIsSpread() {
    String ns = "spread";
    Instant due = cluster.clock.now().plusSeconds(1);
    cluster.tickAll();
    int[] armed = new int[3];
    for (int n = 0; n < 3; n++) {
      // Other tests of the class may have left reminders armed: count this test's only.
      armed[n] = -cluster.engine(n).armedCount();
    }
    for (int i = 0; i < 300; i++) {
      cluster.engine(i % 3).set(once(ns, "r" + i, due));
    }
    cluster.tickAll();
    for (int n = 0; n < 3; n++) {
      armed[n] += cluster.engine(n).armedCount();
    }
    assertThat(armed).doesNotContain(0);
    assertThat(armed[0] + armed[1] + armed[2]).isEqualTo(300);

    cluster.clock.advance(Duration.ofSeconds(2));
    cluster.tickUntil(() -> cluster.deliveredIn(ns).size() >= 300, "300 fires");
    cluster.tickAll();

    List<Delivered> fires = cluster.deliveredIn(ns);
    assertThat(fires).hasSize(300);
    assertThat(byKey(fires)).hasSize(300).allSatisfy((key, count) -> assertThat(count).isOne());
    assertThat(fires.stream().map(Delivered::node).distinct()).containsExactlyInAnyOrder(0, 1, 2);
    assertThat(cluster.engine(1).get(ReminderId.of(ns, "r7")))
        .hasValueSatisfying(r -> assertThat(r.state()).isEqualTo(ReminderState.FIRED));
  }

  @Test
  void set_replaceAfterDueBeforeFire_onlyNewVersionFires() {
    String ns = "replace";
    Instant due = cluster.clock.now().plusSeconds(1);
    for (int i = 0; i < 30; i++) {
      cluster.engine(i % 3).set(once(ns, "r" + i, due).withPayload("old"));
    }
    cluster.tickAll();
    cluster.clock.advance(Duration.ofSeconds(1));
    // Due now, but no member has run yet: the replace wins the race on every key.
    for (int i = 0; i < 30; i++) {
      SetResult result = cluster.engine((i + 1) % 3).set(once(ns, "r" + i, due).withPayload("new"));
      assertThat(result.replaced()).isPresent();
    }
    cluster.tickUntil(() -> cluster.deliveredIn(ns).size() >= 30, "30 fires");
    cluster.tickAll();

    List<Delivered> fires = cluster.deliveredIn(ns);
    assertThat(fires).hasSize(30).extracting(payload()).containsOnly("new");
    assertThat(byKey(fires)).hasSize(30);
  }

  @Test
  void set_replaceConcurrentWithFiring_replacedVersionNeverFiresAndNewOneFiresOnce()
      throws Exception {
    String ns = "replace-race";
    int keys = 40;
    Instant due = cluster.clock.now().plusSeconds(1);
    for (int i = 0; i < keys; i++) {
      cluster.engine(i % 3).set(once(ns, "r" + i, due).withPayload("old"));
    }
    cluster.tickAll();
    cluster.clock.advance(Duration.ofSeconds(1));
    Map<String, SetResult> results = new ConcurrentHashMap<>();
    Thread replacer =
        new Thread(
            () -> {
              for (int i = 0; i < keys; i++) {
                results.put(
                    "r" + i,
                    cluster.engine((i + 1) % 3).set(once(ns, "r" + i, due).withPayload("new")));
              }
            });
    replacer.start();
    cluster.tickUntil(() -> !replacer.isAlive(), "the replacer");
    replacer.join();
    cluster.tickUntil(
        () -> byKey(cluster.deliveredIn(ns)).size() >= keys && newFires(ns) >= keys,
        "a new-version fire of every key");
    cluster.tickAll();

    List<Delivered> fires = cluster.deliveredIn(ns);
    for (int i = 0; i < keys; i++) {
      String key = "r" + i;
      List<String> payloads =
          fires.stream().filter(d -> d.fire().getKey().equals(key)).map(payload()).toList();
      assertThat(payloads).as(key).containsOnlyOnce("new");
      if (results.get(key).replaced().isPresent()) {
        // The replace overwrote the live old version: it must never have fired.
        assertThat(payloads).as(key).containsExactly("new");
      } else {
        // The old version fired first and the set created a new reminder.
        assertThat(payloads).as(key).containsExactlyInAnyOrder("old", "new");
      }
    }
  }

  @Test
  void cancel_concurrentWithFiring_eachReminderFiresXorIsCancelled() throws Exception {
    String ns = "cancel-race";
    int keys = 40;
    Instant due = cluster.clock.now().plusSeconds(1);
    for (int i = 0; i < keys; i++) {
      cluster.engine(i % 3).set(once(ns, "r" + i, due));
    }
    cluster.tickAll();
    cluster.clock.advance(Duration.ofSeconds(1));
    Set<String> cancelled = ConcurrentHashMap.newKeySet();
    Thread canceller =
        new Thread(
            () -> {
              for (int i = 0; i < keys; i++) {
                try {
                  cluster.engine((i + 2) % 3).cancel(ReminderId.of(ns, "r" + i));
                  cancelled.add("r" + i);
                } catch (ReminderNotFoundException alreadyFired) {
                  // The fire committed first.
                }
              }
            });
    canceller.start();
    cluster.tickUntil(() -> !canceller.isAlive(), "the canceller");
    canceller.join();
    cluster.tickAll();
    cluster.clock.advance(Duration.ofSeconds(5));
    cluster.tickAll();

    Map<String, Long> fired = byKey(cluster.deliveredIn(ns));
    assertThat(fired.values()).containsOnly(1L);
    // As an intersection: AssertJ's doesNotContainAnyElementsOf refuses an empty set, and every
    // fire may win the race when the cancels are slow (they read back settled soon after the
    // cluster forms).
    assertThat(fired.keySet().stream().filter(cancelled::contains))
        .as("fired and cancelled")
        .isEmpty();
    assertThat(fired.size() + cancelled.size()).isEqualTo(keys);
    for (int i = 0; i < keys; i++) {
      ReminderState expected =
          cancelled.contains("r" + i) ? ReminderState.CANCELLED : ReminderState.FIRED;
      assertThat(cluster.engine(0).get(ReminderId.of(ns, "r" + i)).orElseThrow().state())
          .isEqualTo(expected);
    }
  }

  @Test
  void cancel_missingOrFired_throwsNotFound() {
    String ns = "cancel-missing";
    assertThatThrownBy(() -> cluster.engine(0).cancel(ReminderId.of(ns, "nope")))
        .isInstanceOf(ReminderNotFoundException.class);
    cluster.engine(1).set(once(ns, "x", cluster.clock.now().plusSeconds(1)));
    cluster.engine(2).cancel(ReminderId.of(ns, "x"));
    assertThatThrownBy(() -> cluster.engine(0).cancel(ReminderId.of(ns, "x")))
        .isInstanceOf(ReminderNotFoundException.class);
  }

  @Test
  void fire_everyWithMaxOccurrences_firesExactlyN() {
    String ns = "every";
    Instant first = cluster.clock.now().plusSeconds(1);
    cluster.engine(0).set(every(ns, "tick", first, Duration.ofSeconds(1), 5));
    for (int step = 1; step <= 8; step++) {
      cluster.clock.advance(Duration.ofSeconds(1));
      int expected = Math.min(step, 5);
      cluster.tickUntil(
          () -> cluster.deliveredIn(ns).size() >= expected, expected + " occurrences");
      cluster.tickAll();
    }

    List<Delivered> fires = cluster.deliveredIn(ns);
    assertThat(fires).extracting(d -> d.fire().getOccurrence()).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(fires)
        .extracting(d -> d.fire().getDueAt())
        .containsExactly(
            first,
            first.plusSeconds(1),
            first.plusSeconds(2),
            first.plusSeconds(3),
            first.plusSeconds(4));
    assertThat(fires.stream().map(d -> d.fire().getFence()).distinct()).hasSize(5);
    assertThat(cluster.engine(2).get(ReminderId.of(ns, "tick")).orElseThrow().state())
        .isEqualTo(ReminderState.FIRED);
  }

  @Test
  void list_byNamespaceAndState_pagesInKeyOrder() {
    String ns = "listing";
    Instant due = cluster.clock.now().plus(Duration.ofDays(1));
    for (int i = 0; i < 25; i++) {
      cluster.engine(i % 3).set(once(ns, String.format("k%02d", i), due));
    }
    cluster.engine(0).cancel(ReminderId.of(ns, "k03"));
    ListQuery first = new ListQuery(ns, "k", ReminderState.PENDING, null, null, null, 10);
    RecordPage page1 = cluster.engine(1).list(first);
    assertThat(page1.items()).hasSize(10);
    assertThat(page1.items().get(3).id().key()).isEqualTo("k04");
    RecordPage page3 =
        cluster
            .engine(2)
            .list(new ListQuery(ns, "k", ReminderState.PENDING, null, null, "listing:k20", 10));
    assertThat(page3.items())
        .extracting(r -> r.id().key())
        .containsExactly("k21", "k22", "k23", "k24");
    assertThat(page3.nextAfterKey()).isEmpty();
    assertThat(page1.nextAfterKey()).contains("listing:k10");
  }

  @Test
  void list_followsWritesAndRemovesMadeOnOtherNodes_andPagesFromACursorBeforeThePrefix() {
    String ns = "listfollow";
    Instant due = cluster.clock.now().plus(Duration.ofDays(1));
    for (String key : List.of("a1", "b1", "b2", "b3", "c1")) {
      cluster.engine(0).set(once(ns, key, due));
    }
    // removed underneath the engines (as the tombstone sweep does): gone from every listing
    cluster.cache(2).remove(ReminderId.of(ns, "b2").cacheKey());
    ListQuery bKeys = new ListQuery(ns, "b", null, null, null, "listfollow:a", 10);
    for (int n = 0; n < 3; n++) {
      assertThat(cluster.engine(n).list(bKeys).items())
          .extracting(r -> r.id().key())
          .as("node %d", n)
          .containsExactly("b1", "b3");
    }
    ListQuery all = new ListQuery(ns, null, null, null, null, null, 2);
    RecordPage first = cluster.engine(1).list(all);
    assertThat(first.items()).extracting(r -> r.id().key()).containsExactly("a1", "b1");
    RecordPage second =
        cluster
            .engine(1)
            .list(new ListQuery(ns, null, null, null, null, first.nextAfterKey().get(), 2));
    assertThat(second.items()).extracting(r -> r.id().key()).containsExactly("b3", "c1");
    assertThat(second.nextAfterKey()).isEmpty();
  }

  static ReminderSpec once(String ns, String key, Instant due) {
    return ReminderSpec.once(ReminderId.of(ns, key), due, key.getBytes(StandardCharsets.UTF_8));
  }

  static ReminderSpec every(String ns, String key, Instant first, Duration interval, int max) {
    return new ReminderSpec(
        ReminderId.of(ns, key),
        new Schedule.Every(interval),
        first,
        null,
        max,
        null,
        null,
        null,
        null,
        null);
  }

  private long newFires(String ns) {
    return cluster.deliveredIn(ns).stream().map(payload()).filter("new"::equals).count();
  }

  static Map<String, Long> byKey(List<Delivered> fires) {
    return fires.stream()
        .collect(Collectors.groupingBy(d -> d.fire().getKey(), Collectors.counting()));
  }

  static Function<Delivered, String> payload() {
    return d -> new String(d.fire().getPayload(), StandardCharsets.UTF_8);
  }
}
