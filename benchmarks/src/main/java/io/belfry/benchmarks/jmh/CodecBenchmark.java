package io.belfry.benchmarks.jmh;

import io.belfry.reminders.bench.BenchRecords;
import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cache value codec ({@link ReminderCodec}, protobuf wire format through ProtoStream's tag
 * writer and reader): encoding a one-shot reminder with a 16-byte payload (what every set and fire
 * writes), decoding it (every fire and listing reads), and reading only its version (the merge
 * policy and the write listener).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecBenchmark {

  private ReminderRecord record;
  private ReminderId id;
  private byte[] encoded;

  @Setup
  public void prepare() {
    id = ReminderId.of("bench", "key-0000000000000000000000042");
    ReminderSpec spec =
        ReminderSpec.once(
            id,
            Instant.parse("2026-11-22T09:00:00Z"),
            "0123456789abcdef".getBytes(StandardCharsets.UTF_8));
    long now = Instant.parse("2026-11-22T08:00:00Z").toEpochMilli();
    record = BenchRecords.pending(spec, now << 16, now);
    encoded = ReminderCodec.encode(record);
  }

  @Benchmark
  public byte[] encode() {
    return ReminderCodec.encode(record);
  }

  @Benchmark
  public ReminderRecord decode() {
    return ReminderCodec.decode(id, encoded);
  }

  @Benchmark
  public long versionOnly() {
    return ReminderCodec.versionOf(encoded);
  }
}
