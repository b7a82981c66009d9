package io.belfry.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Client threads calling a system: operation {@code i} for i in 0..n-1, each taken by the next free
 * thread; open loop (operation i not before its send time) or closed loop (as fast as
 * acknowledged). Stops taking new operations at a deadline, so every run is bounded in time.
 */
final class Clients {

  /** One operation; returns normally when acknowledged. */
  interface Op {
    void call(int thread, int i) throws Exception;
  }

  /** What the clients did. */
  record Outcome(
      boolean[] acknowledged,
      int acked,
      int failed,
      double seconds,
      Histogram latencyMicros,
      String firstError) {
    double perSecond() {
      return acked / seconds;
    }
  }

  /** Room for the operations of one closed-loop run: more than any system does in its seconds. */
  static final int CAPACITY = 2_000_000;

  private Clients() {}

  /** Closed loop: operations 0, 1, … as fast as acknowledged for {@code seconds}. */
  static Outcome forSeconds(int threads, int seconds, Op op) {
    long start = System.nanoTime();
    return run(CAPACITY, threads, start, 0, start + seconds * 1_000_000_000L, op);
  }

  /**
   * Runs operations 0..n-1 on {@code threads} threads; operation i is sent no earlier than {@code
   * startNanos + i * intervalNanos} (0: closed loop); none is started after {@code deadlineNanos}.
   * Seconds are from {@code startNanos} to the last acknowledgement.
   */
  static Outcome run(
      int n, int threads, long startNanos, double intervalNanos, long deadlineNanos, Op op) {
    boolean[] acked = new boolean[n];
    AtomicInteger next = new AtomicInteger();
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    AtomicLong last = new AtomicLong(startNanos);
    Histogram latency = new ConcurrentHistogram(3_600_000_000L, 3);
    String[] firstError = {null};
    List<Thread> clients = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Thread client =
          new Thread(
              () -> {
                for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                  long sendAt = startNanos + (long) (i * intervalNanos);
                  long now;
                  while ((now = System.nanoTime()) < sendAt) {
                    LockSupport.parkNanos(sendAt - now);
                  }
                  if (now > deadlineNanos) {
                    return;
                  }
                  try {
                    op.call(thread, i);
                    long done = System.nanoTime();
                    latency.recordValue(
                        Math.min((done - now) / 1_000, latency.getHighestTrackableValue()));
                    acked[i] = true;
                    ok.incrementAndGet();
                    last.accumulateAndGet(done, Math::max);
                  } catch (Exception | Error e) {
                    if (failed.getAndIncrement() == 0) {
                      firstError[0] = e.toString();
                    }
                  }
                }
              },
              "bench-client-" + t);
      client.setDaemon(true);
      clients.add(client);
    }
    clients.forEach(Thread::start);
    for (Thread t : clients) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    return new Outcome(
        acked, ok.get(), failed.get(), (last.get() - startNanos) / 1e9, latency, firstError[0]);
  }
}
