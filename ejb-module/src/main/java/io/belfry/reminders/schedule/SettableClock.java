package io.belfry.reminders.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Clock} that only moves when told to; shipped in main so that tests of applications and
 * of Belfry drive reminders deterministically together with the engine's manual driver.
 * Thread-safe.
 */
public final class SettableClock implements Clock {

  private final AtomicLong millis;

  public SettableClock(Instant start) {
    this.millis = new AtomicLong(start.toEpochMilli());
  }

  @Override
  public long millis() {
    return millis.get();
  }

  public void set(Instant instant) {
    millis.set(instant.toEpochMilli());
  }

  /** Moves the clock by {@code step} (which may be negative, to test a clock going backwards). */
  public Instant advance(Duration step) {
    return Instant.ofEpochMilli(millis.addAndGet(step.toMillis()));
  }
}
