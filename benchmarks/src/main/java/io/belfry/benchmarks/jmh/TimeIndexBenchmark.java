package io.belfry.benchmarks.jmh;

import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.schedule.TimeIndex;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The engine's time index ({@link TimeIndex}, an indexed binary heap with an open-addressing id
 * table) holding {@code size} reminders with random due times: the cost of the operations a node
 * performs per set, cancel, re-set and fire. One thread, as the scheduler confines the index.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class TimeIndexBenchmark {

  /** Due times fall within this span (ms): about 11.6 days. */
  private static final long SPAN = 1_000_000_000L;

  @Param({"10000", "1000000"})
  int size;

  private TimeIndex index;
  private String[] ids;
  private String[] spare;
  private final SplittableRandom random = new SplittableRandom(42);
  private int cursor;

  @Setup
  public void fill() {
    index = new TimeIndex();
    ids = new String[size];
    for (int i = 0; i < size; i++) {
      ids[i] = ReminderId.of("bench", "key-" + i).cacheKey();
      index.put(ids[i], 1, random.nextLong(SPAN));
    }
    spare = new String[1 << 16];
    for (int i = 0; i < spare.length; i++) {
      spare[i] = ReminderId.of("bench", "spare-" + i).cacheKey();
    }
  }

  /** A new reminder armed and then cancelled (the index returns to its size). */
  @Benchmark
  public boolean setThenCancel() {
    String id = spare[cursor++ & (spare.length - 1)];
    index.put(id, 1, random.nextLong(SPAN));
    return index.remove(id);
  }

  /** An armed reminder set again with a new due time (a replace). */
  @Benchmark
  public int reset() {
    index.put(ids[random.nextInt(size)], 2, random.nextLong(SPAN));
    return index.size();
  }

  /** The earliest reminder polled as due, then armed again later (one fire of a steady stream). */
  @Benchmark
  public long pollOneAndRearm() {
    List<TimeIndex.Entry> due = index.pollDue(Long.MAX_VALUE, 1);
    TimeIndex.Entry e = due.get(0);
    index.put(e.cacheKey(), e.version(), e.dueMillis() + SPAN);
    return e.dueMillis();
  }
}
