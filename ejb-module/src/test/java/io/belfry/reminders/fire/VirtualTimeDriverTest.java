package io.belfry.reminders.fire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.engine.VirtualTimeDriver;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.schedule.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The stepping shared by the test kit and a deployment on virtual time: every fire at its due
 * instant, and only the served namespaces' due times waited for (a deployment's engine shares the
 * cache with others).
 */
class VirtualTimeDriverTest {

  private final InMemoryNode node = new InMemoryNode();
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-25T09:00:00Z"));
  private final List<String> fired = new CopyOnWriteArrayList<>();
  private final ReminderEngine engine =
      ReminderEngine.builder(node, node, node)
          .clock(clock)
          .servedNamespaces("cart"::equals)
          .delivery(fire -> fired.add(fire.getKey() + "@" + clock.now()))
          .build();
  private final VirtualTimeDriver time =
      new VirtualTimeDriver(
          () -> engine, clock, EngineSettings.DEFAULTS.scanInterval(), "cart"::equals);

  @Test
  void advance_firesEachServedReminderAtItsDueInstant_andWaitsForNoOtherNamespace() {
    engine.start();
    Instant start = clock.now();
    engine.set(ReminderSpec.once(ReminderId.of("shop", "other"), start.plusSeconds(5), null));
    engine.set(ReminderSpec.once(ReminderId.of("cart", "late"), start.plusSeconds(20), null));
    engine.set(ReminderSpec.once(ReminderId.of("cart", "early"), start.plusSeconds(10), null));

    assertThat(time.nextDue())
        .as("shop's reminder is not this engine's")
        .contains(start.plusSeconds(10));
    assertThat(time.advanceBy(Duration.ofMinutes(30))).isEqualTo(2);
    assertThat(fired)
        .containsExactly("early@" + start.plusSeconds(10), "late@" + start.plusSeconds(20));
    assertThat(time.now()).isEqualTo(start.plus(Duration.ofMinutes(30)));
    assertThat(time.nextDue()).isEmpty();
  }

  @Test
  void onlyForward() {
    engine.start();
    Instant start = clock.now();
    assertThatThrownBy(() -> time.advanceBy(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> time.advanceTo(start.minusMillis(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(time.now()).isEqualTo(start);
  }
}
