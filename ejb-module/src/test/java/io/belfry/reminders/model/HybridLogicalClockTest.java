package io.belfry.reminders.model;

import static io.belfry.reminders.model.HybridLogicalClock.counterOf;
import static io.belfry.reminders.model.HybridLogicalClock.millisOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HybridLogicalClockTest {

  private static final long T0 = 1_795_000_000_000L; // November 2026

  private final AtomicLong wall = new AtomicLong(T0);

  @Test
  void mint_wallClockAdvances_usesWallClockWithZeroCounter() {
    HybridLogicalClock clock = new HybridLogicalClock(wall::get);

    long first = clock.mint();
    wall.addAndGet(5);
    long second = clock.mint();

    assertThat(millisOf(first)).isEqualTo(T0);
    assertThat(counterOf(first)).isZero();
    assertThat(millisOf(second)).isEqualTo(T0 + 5);
    assertThat(counterOf(second)).isZero();
    assertThat(second).isPositive();
  }

  @Test
  void mint_wallClockStandsStill_incrementsCounter() {
    HybridLogicalClock clock = new HybridLogicalClock(wall::get);

    long first = clock.mint();
    long second = clock.mint();
    long third = clock.mint();

    assertThat(List.of(millisOf(second), millisOf(third))).containsOnly(T0);
    assertThat(List.of(counterOf(first), counterOf(second), counterOf(third)))
        .containsExactly(0, 1, 2);
  }

  @Test
  void mint_wallClockGoesBackwards_staysStrictlyIncreasing() {
    HybridLogicalClock clock = new HybridLogicalClock(wall::get);
    long before = clock.mint();

    wall.set(T0 - 60_000);
    long after = clock.mint();

    assertThat(after).isGreaterThan(before);
    assertThat(millisOf(after)).isEqualTo(T0);
    assertThat(counterOf(after)).isEqualTo(1);
  }

  @Test
  void mint_randomWallClockJumps_strictlyIncreasing() {
    java.util.Random random = new java.util.Random(42);
    HybridLogicalClock clock = new HybridLogicalClock(() -> T0 + random.nextInt(2_000) - 1_000);
    long previous = 0;
    for (int i = 0; i < 100_000; i++) {
      long next = clock.mint();
      assertThat(next).isGreaterThan(previous);
      previous = next;
    }
  }

  @Test
  void mint_counterOverflows_borrowsNextMillisecond() {
    HybridLogicalClock clock = new HybridLogicalClock(wall::get);
    clock.observe(HybridLogicalClock.pack(T0, (int) HybridLogicalClock.MAX_COUNTER - 1));

    long last = clock.mint();
    long borrowed = clock.mint();

    assertThat(millisOf(last)).isEqualTo(T0);
    assertThat(counterOf(last)).isEqualTo(HybridLogicalClock.MAX_COUNTER);
    assertThat(millisOf(borrowed)).isEqualTo(T0 + 1);
    assertThat(counterOf(borrowed)).isZero();
    assertThat(borrowed).isGreaterThan(last);
  }

  @Test
  void mint_manyInOneMillisecond_overflowsRepeatedlyAndStaysIncreasing() {
    HybridLogicalClock clock = new HybridLogicalClock(wall::get);
    long previous = 0;
    for (int i = 0; i < 3 * 65_536; i++) {
      long next = clock.mint();
      assertThat(next).isGreaterThan(previous);
      previous = next;
    }
    assertThat(millisOf(previous)).isEqualTo(T0 + 2);
  }

  @Test
  void mint_afterObservingFutureVersion_exceedsIt() {
    HybridLogicalClock clock = new HybridLogicalClock(wall::get);
    long remote = HybridLogicalClock.pack(T0 + 10_000, 7);

    clock.observe(remote);

    assertThat(clock.mint()).isEqualTo(remote + 1);
  }

  @Test
  void mintAfter_predecessorFromAClockAhead_exceedsIt() {
    HybridLogicalClock clock = new HybridLogicalClock(wall::get);
    long ahead = HybridLogicalClock.pack(T0 + 60_000, 7);

    assertThat(clock.mintAfter(ahead)).isGreaterThan(ahead);
    assertThat(clock.mint()).as("and every later mint").isGreaterThan(ahead);
  }

  @Test
  void observe_olderVersion_isIgnored() {
    HybridLogicalClock clock = new HybridLogicalClock(wall::get);
    long minted = clock.mint();

    clock.observe(minted - 100);

    assertThat(clock.lastVersion()).isEqualTo(minted);
    assertThat(clock.mint()).isGreaterThan(minted);
  }

  @Test
  void observe_negative_throws() {
    HybridLogicalClock clock = new HybridLogicalClock(wall::get);

    assertThatThrownBy(() -> clock.observe(-1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void mint_restartWithClockBehind_exceedsPersistedVersions() {
    HybridLogicalClock beforeRestart = new HybridLogicalClock(wall::get);
    long persistedMax = 0;
    for (int i = 0; i < 1_000; i++) {
      persistedMax = Math.max(persistedMax, beforeRestart.mint());
    }

    // The node restarts with its wall clock stepped back by NTP.
    wall.set(T0 - 3_600_000);
    HybridLogicalClock afterRestart = new HybridLogicalClock(wall::get);
    afterRestart.observe(persistedMax);

    assertThat(afterRestart.mint()).isGreaterThan(persistedMax);
  }

  @Test
  void mint_negativeWallClock_treatedAsEpochAndStillPositive() {
    HybridLogicalClock clock = new HybridLogicalClock(() -> -5);

    long first = clock.mint();

    assertThat(first).isEqualTo(1);
    assertThat(clock.mint()).isEqualTo(2);
  }

  @Test
  void mint_wallClockBeyondRange_throws() {
    HybridLogicalClock clock = new HybridLogicalClock(() -> HybridLogicalClock.MAX_MILLIS + 1);

    assertThatThrownBy(clock::mint).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void pack_maxValues_staysPositiveAndUnpacks() {
    long version =
        HybridLogicalClock.pack(
            HybridLogicalClock.MAX_MILLIS, (int) HybridLogicalClock.MAX_COUNTER);

    assertThat(version).isEqualTo(Long.MAX_VALUE);
    assertThat(millisOf(version)).isEqualTo(HybridLogicalClock.MAX_MILLIS);
    assertThat(counterOf(version)).isEqualTo(HybridLogicalClock.MAX_COUNTER);
  }

  @Test
  void mint_fourThreadsConcurrently_uniqueAndIncreasingPerThread() throws Exception {
    HybridLogicalClock clock = new HybridLogicalClock(wall::get);
    int threads = 4;
    int perThread = 50_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<long[]>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int seed = t;
        Callable<long[]> minter =
            () -> {
              start.await();
              long[] minted = new long[perThread];
              for (int i = 0; i < perThread; i++) {
                if (i % 1_000 == seed) {
                  wall.addAndGet(seed % 2 == 0 ? 1 : -1); // the clock wobbles under the minters
                }
                minted[i] = clock.mint();
              }
              return minted;
            };
        futures.add(pool.submit(minter));
      }
      start.countDown();

      Set<Long> all = new HashSet<>();
      for (Future<long[]> future : futures) {
        long[] minted = future.get(60, TimeUnit.SECONDS);
        for (int i = 1; i < minted.length; i++) {
          assertThat(minted[i]).isGreaterThan(minted[i - 1]);
        }
        for (long version : minted) {
          all.add(version);
        }
      }
      assertThat(all).hasSize(threads * perThread);
    } finally {
      pool.shutdownNow();
    }
  }
}
