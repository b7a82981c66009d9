package io.belfry.reminders.schedule;

import java.time.Instant;

/**
 * Where a reminder's timeline ends, independently of its schedule.
 *
 * @param until no occurrence is scheduled after this instant (one exactly at it still happens);
 *     {@code null} for no end time
 * @param maxOccurrences the timeline has at most this many positions, the first fire time included;
 *     {@code null} for no limit
 */
public record Bounds(Instant until, Long maxOccurrences) {

  /** No end time and no limit on the count. */
  public static final Bounds NONE = new Bounds(null, null);

  public Bounds {
    if (maxOccurrences != null && maxOccurrences < 1) {
      throw new IllegalArgumentException(
          "maxOccurrences must be at least 1, was " + maxOccurrences);
    }
  }

  /** These bounds with the end time {@code until} ({@code null} to remove it). */
  public Bounds withUntil(Instant until) {
    return new Bounds(until, maxOccurrences);
  }

  /** These bounds with at most {@code maxOccurrences} positions ({@code null} to remove it). */
  public Bounds withMaxOccurrences(Long maxOccurrences) {
    return new Bounds(until, maxOccurrences);
  }

  /** Whether an occurrence at {@code due} is still within the end time. */
  boolean admits(Instant due) {
    return until == null || !due.isAfter(until);
  }
}
