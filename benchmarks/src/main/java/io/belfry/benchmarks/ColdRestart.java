package io.belfry.benchmarks;

import io.belfry.benchmarks.Results.Better;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Workload (d): {@code pending} one-shot tasks due in 30 days, loaded the fastest way each system
 * offers; the memory they take (JVM heap after a full GC, and the durable state on disk or in
 * PostgreSQL); then the system goes down, {@code overdue} more tasks are scheduled while it is down
 * (due at once), and it starts again on the same state: time from the start to the first overdue
 * fire, to all overdue fired, and (Belfry, whose nodes index what they own in memory) to all armed.
 */
final class ColdRestart {

  /** Opens the system on its existing state ({@code fresh} false) or on a new one. */
  interface Opener {
    Contender open(boolean fresh) throws Exception;
  }

  private static final int CHUNK = 1_000;
  private static final long ARM_TIMEOUT_MILLIS = 300_000;

  private final Options o;
  private final Results results;

  ColdRestart(Options options, Results results) {
    this.o = options;
    this.results = results;
  }

  void run(String system, String group, int pending, Opener opener) throws Exception {
    long later = System.currentTimeMillis() + 30L * 24 * 3600 * 1000;
    long heapBefore = Usage.usedHeapAfterGc();
    double loadRate;
    long heapLoaded;
    long stored;
    try (Contender c = opener.open(true)) {
      loadRate = load(c, pending, later);
      if (c.armed() >= 0) {
        long deadline = System.currentTimeMillis() + ARM_TIMEOUT_MILLIS;
        while (c.armed() < pending && System.currentTimeMillis() < deadline) {
          Thread.sleep(20);
        }
      }
      heapLoaded = Usage.usedHeapAfterGc();
      stored = c.storedBytes();
      c.pause();
      long dueNow = System.currentTimeMillis();
      for (int i = 0; i < o.overdue(); i++) {
        c.schedule(0, Fires.id("d", i), dueNow);
      }
    }
    long[] due = new long[o.overdue()];
    Fires.Run run = Fires.begin("d", due);
    long startMicros = Fires.nowMicros();
    java.util.Arrays.fill(due, startMicros / 1_000);
    long start = System.nanoTime();
    try (Contender c = opener.open(false)) {
      long openMillis = (System.nanoTime() - start) / 1_000_000;
      long armed = c.armed();
      run.await(o.overdue(), System.currentTimeMillis() + 120_000);
      String d = String.format(Locale.ROOT, "(d) %,d pending", pending);
      results.put(group, system, d + ": load schedules/s", Better.HIGHER, "%,.0f", loadRate);
      results.put(
          group,
          system,
          d + ": JVM heap B/pending",
          Better.LOWER,
          "%,.0f",
          (heapLoaded - heapBefore) / (double) pending);
      results.put(
          group,
          system,
          d + ": durable state B/pending (disk or PostgreSQL)",
          Better.LOWER,
          "%,.0f",
          stored / (double) pending);
      results.put(
          group,
          system,
          d + ": restart to first overdue fire ms",
          Better.LOWER,
          "%,.0f",
          millisSince(startMicros, run.firstMicros.get()));
      results.put(
          group,
          system,
          d + ": restart to all " + o.overdue() + " overdue fired ms",
          Better.LOWER,
          "%,.0f",
          run.fired.get() < o.overdue()
              ? Double.NaN
              : millisSince(startMicros, run.lastMicros.get()));
      results.put(
          group,
          system,
          d + ": restart to all armed ms",
          Better.LOWER,
          "%,.0f",
          armed < 0 ? Double.NaN : openMillis);
      boolean[] all = new boolean[o.overdue()];
      java.util.Arrays.fill(all, true);
      results.put(group, system, d + ": overdue missed", Better.LOWER, "%,.0f", run.misses(all));
      results.put(
          group, system, d + ": overdue duplicated", Better.LOWER, "%,.0f", run.duplicates());
      if (armed >= 0 && armed < pending) {
        results.note(
            "%s, %s: only %,d of %,d armed when the start returned.",
            system, group, armed, pending);
      }
      Workloads.log(
          "%s (d) %,d pending: load %,.0f/s, heap %,d B, stored %,d B, open %d ms, %d of %d overdue fired",
          system,
          pending,
          loadRate,
          heapLoaded - heapBefore,
          stored,
          openMillis,
          run.fired.get(),
          o.overdue());
    }
  }

  private static double millisSince(long startMicros, long micros) {
    return micros == Long.MAX_VALUE || micros == 0 ? Double.NaN : (micros - startMicros) / 1_000.0;
  }

  /** Loads in chunks of {@value #CHUNK} on the client threads; returns tasks/s. */
  private double load(Contender c, int pending, long due) throws InterruptedException {
    AtomicInteger next = new AtomicInteger();
    AtomicInteger failures = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    long start = System.nanoTime();
    for (int t = 0; t < o.clients(); t++) {
      Thread thread =
          new Thread(
              () -> {
                for (int from = next.getAndAdd(CHUNK);
                    from < pending;
                    from = next.getAndAdd(CHUNK)) {
                  List<String> ids = new ArrayList<>(CHUNK);
                  for (int i = from; i < Math.min(pending, from + CHUNK); i++) {
                    ids.add(Fires.id("p", i));
                  }
                  try {
                    c.scheduleAll(ids, due);
                  } catch (Exception e) {
                    failures.incrementAndGet();
                  }
                }
              },
              "bench-loader-" + t);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    if (failures.get() > 0) {
      throw new IllegalStateException(failures.get() + " chunks of the pending load failed");
    }
    return pending / ((System.nanoTime() - start) / 1e9);
  }
}
