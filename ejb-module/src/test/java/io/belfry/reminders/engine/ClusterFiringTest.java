package io.belfry.reminders.engine;

import static org.assertj.core.api.Assertions.assertThat;

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
    for (int i = 0; i < 300; i++) {
      cluster.engine(i % 3).set(once(ns, "r" + i, due));
    }
    cluster.tickAll();
    int[] armed = new int[3];
    for (int n = 0; n < 3; n++) {
      armed[n] = cluster.engine(n).armedCount();
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

  static Map<String, Long> byKey(List<Delivered> fires) {
    return fires.stream()
        .collect(Collectors.groupingBy(d -> d.fire().key(), Collectors.counting()));
  }

  static Function<Delivered, String> payload() {
    return d -> new String(d.fire().payload(), StandardCharsets.UTF_8);
  }
}
