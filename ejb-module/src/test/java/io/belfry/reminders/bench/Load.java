package io.belfry.reminders.bench;

import io.belfry.reminders.engine.ReminderEngine;
import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.model.ReminderId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntToLongFunction;
import org.HdrHistogram.Histogram;

/** Drives {@link ReminderEngine#set} from client threads; the shapes every phase loads with. */
final class Load {

  static final String NAMESPACE = "bench";

  /** Reminder keys are this long (the cache key adds the namespace and a colon: 36 chars). */
  static final int KEY_LENGTH = 30;

  static final byte[] PAYLOAD =
      "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  private Load() {}

  /** A 30-character key: {@code prefix} then {@code i}, zero-padded. */
  static String key(String prefix, long i) {
    String n = Long.toString(i);
    StringBuilder sb = new StringBuilder(KEY_LENGTH).append(prefix);
    for (int k = prefix.length() + n.length(); k < KEY_LENGTH; k++) {
      sb.append('0');
    }
    return sb.append(n).toString();
  }

  static ReminderSpec once(String key, long dueMillis) {
    return ReminderSpec.once(
        ReminderId.of(NAMESPACE, key), Instant.ofEpochMilli(dueMillis), PAYLOAD);
  }

  /** Sets per second and per-set latency of {@code threads} clients over a fixed time. */
  record Throughput(int threads, long sets, double seconds, Histogram latencyMicros) {
    double perSecond() {
      return sets / seconds;
    }
  }

  /**
   * {@code threads} clients set one-shot reminders due in 30 days, each as fast as acknowledged,
   * for {@code millis}; keys start with {@code prefix}.
   */
  static Throughput timed(ReminderEngine engine, String prefix, int threads, long millis) {
    long due = System.currentTimeMillis() + 30L * 24 * 3600 * 1000;
    List<Histogram> histograms = new ArrayList<>();
    long[] counts = new long[threads];
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> clients = new ArrayList<>();
    long[] window = new long[2];
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Histogram h = new Histogram(3_600_000_000L, 3);
      histograms.add(h);
      Thread client =
          new Thread(
              () -> {
                await(go);
                long end = window[1];
                long n = 0;
                String p = prefix + thread + "-";
                for (long now = System.nanoTime(); now < end; ) {
                  engine.set(once(key(p, n), due));
                  long after = System.nanoTime();
                  h.recordValue((after - now) / 1000);
                  now = after;
                  n++;
                }
                counts[thread] = n;
              },
              "bench-client-" + t);
      clients.add(client);
    }
    clients.forEach(Thread::start);
    window[0] = System.nanoTime();
    window[1] = window[0] + millis * 1_000_000;
    go.countDown();
    joinAll(clients);
    double seconds = (System.nanoTime() - window[0]) / 1e9;
    Histogram all = new Histogram(3_600_000_000L, 3);
    histograms.forEach(all::add);
    long sets = 0;
    for (long c : counts) {
      sets += c;
    }
    return new Throughput(threads, sets, seconds, all);
  }

  /**
   * {@code threads} clients set reminders {@code 0..n-1} (key {@code prefix + i}) due at {@code
   * dueOf(i)}; returns the sets per second achieved.
   */
  static double fixed(
      ReminderEngine engine, String prefix, int n, int threads, IntToLongFunction dueOf) {
    AtomicInteger next = new AtomicInteger();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> clients = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread client =
          new Thread(
              () -> {
                await(go);
                for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                  engine.set(once(key(prefix, i), dueOf.applyAsLong(i)));
                }
              },
              "bench-loader-" + t);
      clients.add(client);
    }
    clients.forEach(Thread::start);
    long start = System.nanoTime();
    go.countDown();
    joinAll(clients);
    return n / ((System.nanoTime() - start) / 1e9);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void joinAll(List<Thread> threads) {
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
  }
}
