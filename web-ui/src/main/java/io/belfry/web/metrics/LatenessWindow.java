package io.belfry.web.metrics;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;

/**
 * The lateness of the last {@value #SIZE} fires of this deployment, for percentiles that follow the
 * present (the metrics' p50/p99 gauges and the console's dashboard). A ring buffer: recording is a
 * lock and an array store; a percentile sorts a copy.
 */
@ApplicationScoped
public class LatenessWindow {

  static final int SIZE = 10_000;

  private final long[] millis = new long[SIZE];
  private int next;
  private int count;

  public synchronized void record(long latenessMillis) {
    millis[next] = latenessMillis;
    next = (next + 1) % SIZE;
    count = Math.min(count + 1, SIZE);
  }

  /** The {@code percentile} (0–100) of the window in milliseconds; 0 when empty. */
  public long percentile(double percentile) {
    long[] sorted;
    synchronized (this) {
      sorted = Arrays.copyOf(millis, count);
    }
    if (sorted.length == 0) {
      return 0;
    }
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank))];
  }

  public synchronized int size() {
    return count;
  }
}
