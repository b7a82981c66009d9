package io.belfry.reminders.bench;

import io.belfry.reminders.api.ReminderFired;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Fire lateness at a steady rate, section (3) of {@link EngineBenchmark}; public for benchmarks of
 * other modules. Reminders due evenly spread at the rate (due times are whole milliseconds) are
 * loaded before the first is due; each delivery records its lateness, delivery wall time − due
 * time. It measures only: the caller asserts on the {@link Result} that every reminder fired once.
 */
public final class SteadyRate {

  private static final String KEY_PREFIX = "l";

  private SteadyRate() {}

  /**
   * What one run measured.
   *
   * @param latenessMicros lateness of every delivery in µs (early ones count as 0)
   * @param firstDueMillis when the first reminder was due; the others follow at 1/rate intervals
   * @param lastDeliveryMicros wall time of the last delivery
   * @param achieved fires per second: N / (last delivery − first due)
   * @param early deliveries before their due time
   * @param loadedInTime whether every reminder was set before the first was due
   */
  public record Result(
      int rate,
      int seconds,
      Histogram latenessMicros,
      long firstDueMillis,
      long lastDeliveryMicros,
      double achieved,
      int delivered,
      int distinct,
      int early,
      boolean loadedInTime) {

    /** How many reminders the run set, each due once: rate × seconds. */
    public int expected() {
      return rate * seconds;
    }
  }

  /**
   * Acknowledged sets/s of the benchmark's loader threads on {@code node} over {@code millis}: a
   * warm-up, and the set rate {@link #measure} needs. The reminders are due in 30 days.
   */
  public static double setsPerSecond(BenchNode node, long millis) {
    return Load.timed(node.engine, "w", EngineBenchmark.LOADER_THREADS, millis).perSecond();
  }

  /**
   * Sets {@code rate × seconds} one-shot reminders on {@code node}, the first due 1.5 × the load
   * time expected at {@code setRate} plus 3 s from now, and records every delivery until all have
   * fired (or 300 s after the last is due). Replaces the node's delivery sink.
   */
  public static Result measure(BenchNode node, int rate, int seconds, double setRate) {
    int n = rate * seconds;
    Histogram lateness = new ConcurrentHistogram(3);
    AtomicInteger delivered = new AtomicInteger();
    AtomicInteger early = new AtomicInteger();
    AtomicLong lastMicros = new AtomicLong();
    Set<String> keys = ConcurrentHashMap.newKeySet(n);
    node.onFire(
        (ReminderFired fire) -> {
          long now = EngineBenchmark.nowMicros();
          long late = now - fire.getDueAt().toEpochMilli() * 1_000;
          if (late < 0) {
            early.incrementAndGet();
          }
          lateness.recordValue(Math.max(0, late));
          keys.add(fire.getKey());
          lastMicros.accumulateAndGet(now, Math::max);
          delivered.incrementAndGet();
        });
    long start = System.currentTimeMillis() + (long) (n / setRate * 1_500) + 3_000;
    // Due times spread evenly: reminder i is due at start + i / rate.
    Load.fixed(
        node.engine,
        KEY_PREFIX,
        n,
        EngineBenchmark.LOADER_THREADS,
        i -> start + (long) i * 1_000 / rate);
    boolean loadedInTime = System.currentTimeMillis() < start;
    EngineBenchmark.awaitCount(delivered, n, start + seconds * 1_000L + 300_000);
    double span = (lastMicros.get() - start * 1_000) / 1e6;
    return new Result(
        rate,
        seconds,
        lateness,
        start,
        lastMicros.get(),
        n / span,
        delivered.get(),
        keys.size(),
        early.get(),
        loadedInTime);
  }
}
