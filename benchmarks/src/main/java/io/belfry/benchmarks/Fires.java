package io.belfry.benchmarks;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Where every system under test reports its executions: one {@link Run} at a time, whose task ids
 * are {@code prefix-i}. Each task counts its own executions (duplicates and misses come from those
 * counts) and each execution its lateness against the due time the harness asked for, so the three
 * systems are measured by the same code. Static because Quartz instantiates its jobs itself.
 */
final class Fires {

  private static volatile Run current = new Run("none", 0, new long[0]);
  private static final AtomicInteger STRAY = new AtomicInteger();

  private Fires() {}

  /** Starts recording tasks {@code prefix-0 .. prefix-(n-1)}, task i due at {@code due[i]} ms. */
  static Run begin(String prefix, long[] due) {
    Run run = new Run(prefix, due.length, due);
    current = run;
    return run;
  }

  /** Executions that belonged to no current run (a task of an earlier workload firing late). */
  static int stray() {
    return STRAY.get();
  }

  /** Called by every system's task body, on its execution thread. */
  static void fired(String id) {
    fired(id, nowMicros());
  }

  /** An execution stamped {@code now} (µs since the epoch) where it ran ({@link FireRelay}). */
  static void fired(String id, long now) {
    Run run = current;
    int dash = id.lastIndexOf('-');
    if (dash < 0 || !id.regionMatches(0, run.prefix, 0, dash) || dash != run.prefix.length()) {
      STRAY.incrementAndGet();
      return;
    }
    run.record(Integer.parseInt(id, dash + 1, id.length(), 10), now);
  }

  static String id(String prefix, int i) {
    return prefix + "-" + i;
  }

  static long nowMicros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
  }

  /** The executions of one workload. */
  static final class Run {
    final String prefix;
    final long[] dueMillis;
    final AtomicIntegerArray executions;
    final Histogram latenessMicros = new ConcurrentHistogram(3_600_000_000L, 3);
    final AtomicInteger fired = new AtomicInteger();
    final AtomicInteger early = new AtomicInteger();
    final AtomicLong firstMicros = new AtomicLong(Long.MAX_VALUE);
    final AtomicLong lastMicros = new AtomicLong();

    private Run(String prefix, int n, long[] dueMillis) {
      this.prefix = prefix;
      this.dueMillis = dueMillis;
      this.executions = new AtomicIntegerArray(n);
    }

    String id(int i) {
      return Fires.id(prefix, i);
    }

    private void record(int i, long nowMicros) {
      if (i < 0 || i >= executions.length()) {
        STRAY.incrementAndGet();
        return;
      }
      executions.incrementAndGet(i);
      long late = nowMicros - dueMillis[i] * 1_000;
      if (late < 0) {
        early.incrementAndGet();
      }
      latenessMicros.recordValue(
          Math.max(0, Math.min(late, latenessMicros.getHighestTrackableValue())));
      firstMicros.accumulateAndGet(nowMicros, Math::min);
      lastMicros.accumulateAndGet(nowMicros, Math::max);
      fired.incrementAndGet();
    }

    /**
     * Waits until {@code expected} executions arrived or the wall clock passes {@code
     * deadlineMillis}, then a little longer for stragglers (duplicates, if any).
     */
    void await(int expected, long deadlineMillis) {
      while (fired.get() < expected && System.currentTimeMillis() < deadlineMillis) {
        LockSupport.parkNanos(2_000_000);
      }
      LockSupport.parkNanos(300_000_000);
    }

    /** Executions beyond the first of any task. */
    int duplicates() {
      int d = 0;
      for (int i = 0; i < executions.length(); i++) {
        d += Math.max(0, executions.get(i) - 1);
      }
      return d;
    }

    /** Acknowledged tasks that never executed. */
    int misses(boolean[] acknowledged) {
      int m = 0;
      for (int i = 0; i < executions.length(); i++) {
        if (acknowledged[i] && executions.get(i) == 0) {
          m++;
        }
      }
      return m;
    }
  }
}
