package io.belfry.reminders.schedule;

import java.time.Instant;

/**
 * The one source of "now" for the engine, injected so that tests drive time by hand ({@link
 * SettableClock}) instead of sleeping. Wall-clock epoch milliseconds: fire times are wall-clock
 * instants on the owning node.
 */
@FunctionalInterface
public interface Clock {

  /** Epoch milliseconds now. */
  long millis();

  default Instant now() {
    return Instant.ofEpochMilli(millis());
  }

  /**
   * This clock as a {@code java.time.Clock} in UTC, for Bean Validation's time-relative rules (its
   * {@code ClockProvider}): a request is checked against the same now the engine uses.
   */
  default java.time.Clock asJavaClock() {
    return new JavaClockView(this);
  }

  /** The system's wall clock. */
  static Clock system() {
    return System::currentTimeMillis;
  }
}
