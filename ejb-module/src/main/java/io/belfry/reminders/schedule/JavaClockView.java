package io.belfry.reminders.schedule;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A {@link Clock} read as {@code java.time.Clock}; see {@link Clock#asJavaClock()}. */
final class JavaClockView extends java.time.Clock {

  private final Clock clock;

  JavaClockView(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Instant instant() {
    return clock.now();
  }

  @Override
  public long millis() {
    return clock.millis();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public java.time.Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("the engine's clock is read in UTC");
  }
}
