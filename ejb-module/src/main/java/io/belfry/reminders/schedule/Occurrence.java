package io.belfry.reminders.schedule;

import java.time.Instant;
import java.util.Objects;

/**
 * One position on a reminder's timeline: when it is scheduled to fire and which position it is,
 * counting from 1 for the first fire time.
 */
public record Occurrence(Instant due, long number) {

  public Occurrence {
    Objects.requireNonNull(due, "due time is required");
    if (number < 1) {
      throw new IllegalArgumentException("occurrence numbers start at 1, was " + number);
    }
  }
}
