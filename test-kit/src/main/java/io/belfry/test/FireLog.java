package io.belfry.test;

import io.belfry.reminders.api.ReminderFired;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Every fire delivered so far, in delivery order, one entry per attempt (an at-least-once reminder
 * retried twice shows three times, with attempts 1, 2, 3 and the same fence), and the deliveries
 * that failed. Recorded before the observers run, so a fire whose observer throws is here too.
 *
 * <p>The assertion methods throw {@link AssertionError} with the fires in the message, so they work
 * with any assertion library, or none.
 */
public final class FireLog {

  /** A delivery whose observer threw. */
  public record Failure(ReminderFired fire, Throwable error) {}

  private final List<ReminderFired> fires = new CopyOnWriteArrayList<>();
  private final List<Failure> failures = new CopyOnWriteArrayList<>();

  FireLog() {}

  void delivered(ReminderFired fire) {
    fires.add(fire);
  }

  void failed(ReminderFired fire, Throwable error) {
    failures.add(new Failure(fire, error));
  }

  /** Every fire, in delivery order. */
  public List<ReminderFired> all() {
    return List.copyOf(fires);
  }

  /** The fires of {@code key}, in any namespace, in delivery order. */
  public List<ReminderFired> of(String key) {
    return fires.stream().filter(f -> f.getKey().equals(key)).toList();
  }

  /** The fires of {@code key} in {@code namespace}, in delivery order. */
  public List<ReminderFired> of(String namespace, String key) {
    return fires.stream()
        .filter(f -> f.getNamespace().equals(namespace) && f.getKey().equals(key))
        .toList();
  }

  /** How many times {@code key} was delivered (attempts included). */
  public int count(String key) {
    return of(key).size();
  }

  /** The keys of the fires in delivery order, a key once per fire. */
  public List<String> keys() {
    return fires.stream().map(ReminderFired::getKey).toList();
  }

  /** When each fire of {@code key} was due, in delivery order. */
  public List<Instant> dueTimes(String key) {
    return of(key).stream().map(ReminderFired::getDueAt).toList();
  }

  /** The deliveries whose observer threw, in order. */
  public List<Failure> failures() {
    return List.copyOf(failures);
  }

  /**
   * The one fire of {@code key}.
   *
   * @throws AssertionError if {@code key} fired never or more than once
   */
  public ReminderFired single(String key) {
    List<ReminderFired> of = of(key);
    if (of.size() != 1) {
      throw new AssertionError(
          "expected one fire of " + key + ", got " + of.size() + ": " + describe(of));
    }
    return of.get(0);
  }

  /**
   * @throws AssertionError if {@code key} fired
   */
  public FireLog assertNotFired(String key) {
    List<ReminderFired> of = of(key);
    if (!of.isEmpty()) {
      throw new AssertionError("expected no fire of " + key + ", got " + describe(of));
    }
    return this;
  }

  /**
   * @throws AssertionError if any fire happened before it was due ({@code firedAt < dueAt})
   */
  public FireLog assertNoneEarly() {
    List<ReminderFired> early =
        fires.stream().filter(f -> f.getFiredAt().isBefore(f.getDueAt())).toList();
    if (!early.isEmpty()) {
      throw new AssertionError("fired before they were due: " + describe(early));
    }
    return this;
  }

  /** Forgets what was recorded, e.g. between the phases of a test. */
  public void clear() {
    fires.clear();
    failures.clear();
  }

  @Override
  public String toString() {
    return describe(fires);
  }

  private static String describe(List<ReminderFired> fires) {
    return fires.stream()
        .map(ReminderFired::toString)
        .collect(Collectors.joining("\n  ", "[\n  ", "]"));
  }
}
