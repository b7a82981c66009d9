package io.belfry.reminders.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.Schedule;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.infinispan.protostream.ProtobufUtil;
import org.infinispan.protostream.TagWriter;
import org.infinispan.protostream.impl.TagWriterImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class ReminderCodecTest {

  private static final long NOW = 1_795_000_000_000L;
  private static final ReminderId ID =
      new ReminderId("default", "invoice-2026-000123/reminder:1"); // 30 characters

  private static ReminderRecord record(Schedule schedule, ReminderState state, byte[] payload) {
    return new ReminderRecord(
        ID,
        HybridLogicalClock.pack(NOW, 17),
        state,
        schedule,
        NOW + 60_000,
        1,
        null,
        null,
        MisfirePolicy.FIRE_ONCE,
        null,
        DeliveryMode.AT_MOST_ONCE,
        payload,
        null,
        NOW,
        NOW,
        state == ReminderState.DELIVERING || state == ReminderState.DEAD_LETTER
            ? new DeliveryProgress(HybridLogicalClock.pack(NOW, 3), 2, "node2", NOW + 30_000, null)
            : null);
  }

  @Test
  void decode_deliveryProgress_roundTrips() {
    ReminderRecord pending = record(new Schedule.Once(), ReminderState.PENDING, new byte[] {7});
    ReminderRecord leased = pending.leased(pending.version() + 1, "node-1", NOW + 30_000, NOW);
    ReminderRecord retrying = leased.retryAt(leased.version() + 1, NOW + 1_000, "Boom: x", NOW);
    ReminderRecord dead = retrying.leased(retrying.version() + 1, "node-2", NOW + 60_000, NOW);
    ReminderRecord deadLetter = dead.deadLettered(dead.version() + 1, "é".repeat(600), NOW);

    for (ReminderRecord record : List.of(leased, retrying, dead, deadLetter)) {
      assertThat(ReminderCodec.decode(ID, ReminderCodec.encode(record))).isEqualTo(record);
    }
    assertThat(deadLetter.fence()).isEqualTo(pending.version());
    assertThat(deadLetter.attempts()).isEqualTo(2);
    assertThat(deadLetter.progress().lastError()).hasSize(DeliveryProgress.MAX_ERROR_LENGTH);
    assertThat(retrying.armAtMillis()).isEqualTo(NOW + 1_000);
    assertThat(dead.armAtMillis()).isEqualTo(NOW + 60_000);
  }

  static Stream<Schedule> schedules() {
    return Stream.of(
        new Schedule.Once(),
        new Schedule.Every(Duration.ofMinutes(15)),
        new Schedule.Every(Duration.ofSeconds(1, 500)),
        new Schedule.Cron("0 9 * * MON-FRI", ZoneId.of("Europe/Paris")),
        new Schedule.Cron("*/5 * * * *", ZoneId.of("UTC")),
        new Schedule.Repeat(Instant.parse("2026-01-01T09:00:00Z"), Duration.ofHours(1), 5),
        new Schedule.Repeat(
            Instant.parse("1969-12-31T23:59:59.123456789Z"), Duration.ofNanos(1), null));
  }

  @ParameterizedTest
  @MethodSource("schedules")
  void decode_encodedSchedule_roundTrips(Schedule schedule) {
    ReminderRecord record = record(schedule, ReminderState.PENDING, new byte[] {1, 2, 3});

    assertThat(ReminderCodec.decode(ID, ReminderCodec.encode(record))).isEqualTo(record);
  }

  @ParameterizedTest
  @EnumSource(ReminderState.class)
  void decode_encodedState_roundTrips(ReminderState state) {
    ReminderRecord record = record(new Schedule.Once(), state, null);

    assertThat(ReminderCodec.decode(ID, ReminderCodec.encode(record))).isEqualTo(record);
  }

  @ParameterizedTest
  @EnumSource(ReminderState.class)
  void summaryOf_encodedState_readsStateAndNextDueLikeDecode(ReminderState state) {
    ReminderRecord record =
        record(new Schedule.Cron("*/5 * * * *", ZoneId.of("UTC")), state, new byte[] {9, 9});

    assertThat(ReminderSummary.of(ReminderCodec.encode(record)))
        .isEqualTo(new ReminderSummary(state, NOW + 60_000));
  }

  @Test
  void encode_withWriteStamps_equalRecordsGiveDifferentValuesThatReadTheSame() {
    ReminderRecord tombstone =
        record(new Schedule.Once(), ReminderState.PENDING, new byte[] {7})
            .tombstone(ReminderState.FIRED, NOW + 60_001);

    byte[] one = ReminderCodec.encode(tombstone, 1L);
    byte[] other = ReminderCodec.encode(tombstone, 2L);

    assertThat(one).as("two writes of one record").isNotEqualTo(other);
    assertThat(one).isNotEqualTo(ReminderCodec.encode(tombstone));
    for (byte[] value : List.of(one, other)) {
      assertThat(ReminderCodec.decode(ID, value)).isEqualTo(tombstone);
      assertThat(ReminderCodec.versionOf(value)).isEqualTo(tombstone.version());
      assertThat(ReminderSummary.of(value).state()).isEqualTo(ReminderState.FIRED);
    }
  }

  @Test
  void summaryOf_garbage_throwsLikeDecode() {
    assertThatThrownBy(() -> ReminderSummary.of(new byte[] {1, 2, 3}))
        .isInstanceOf(ReminderCodecException.class);
  }

  @ParameterizedTest
  @EnumSource(MisfirePolicy.class)
  void decode_encodedMisfirePolicy_roundTrips(MisfirePolicy misfire) {
    ReminderRecord record = withOptionals(misfire, null, null, null, null);

    assertThat(ReminderCodec.decode(ID, ReminderCodec.encode(record))).isEqualTo(record);
  }

  @Test
  void decode_allOptionalFieldsSet_roundTrips() {
    ReminderRecord record =
        withOptionals(MisfirePolicy.SKIP, NOW + 86_400_000L, 12, 30_000L, "application/json");

    ReminderRecord decoded = ReminderCodec.decode(ID, ReminderCodec.encode(record));

    assertThat(decoded).isEqualTo(record);
    assertThat(decoded.untilMillis()).isEqualTo(NOW + 86_400_000L);
    assertThat(decoded.maxOccurrences()).isEqualTo(12);
    assertThat(decoded.deadlineMillis()).isEqualTo(30_000L);
  }

  @Test
  void decode_zeroValuedOptionals_keptDistinctFromAbsent() {
    ReminderRecord record = withOptionals(MisfirePolicy.FIRE_ALL, 0L, 1, 0L, "");

    ReminderRecord decoded = ReminderCodec.decode(ID, ReminderCodec.encode(record));

    assertThat(decoded.untilMillis()).isZero();
    assertThat(decoded.deadlineMillis()).isZero();
    assertThat(decoded.contentType()).isEmpty();
  }

  @Test
  void decode_extremeTimes_roundTrip() {
    ReminderRecord record =
        new ReminderRecord(
            ID,
            Long.MAX_VALUE,
            ReminderState.CANCELLED,
            new Schedule.Once(),
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            Long.MAX_VALUE,
            Integer.MAX_VALUE,
            MisfirePolicy.SKIP,
            Long.MAX_VALUE,
            DeliveryMode.AT_MOST_ONCE,
            new byte[70_000],
            "x",
            Long.MAX_VALUE,
            Long.MIN_VALUE);

    assertThat(ReminderCodec.decode(ID, ReminderCodec.encode(record))).isEqualTo(record);
  }

  @Test
  void decode_updatedLaterThanCreated_roundTrips() {
    ReminderRecord record =
        record(new Schedule.Once(), ReminderState.PENDING, null)
            .withNext(HybridLogicalClock.pack(NOW + 5, 0), NOW + 120_000, 2, NOW + 61_000);

    assertThat(ReminderCodec.decode(ID, ReminderCodec.encode(record))).isEqualTo(record);
  }

  @Test
  void decode_unknownFieldsAppended_skipsThem() throws Exception {
    ReminderRecord record = withOptionals(MisfirePolicy.FIRE_ALL, NOW, 3, 10L, "text/plain");
    ByteArrayOutputStream newer = new ByteArrayOutputStream();
    newer.write(ReminderCodec.encode(record));
    // What a newer Belfry might add: every wire type, small and large field numbers.
    TagWriter extra = TagWriterImpl.newInstance(ProtobufUtil.newSerializationContext(), newer);
    extra.writeInt64(19, 123_456_789L);
    extra.writeString(20, "a field from the future");
    extra.writeFixed64(100, -1L);
    extra.writeFixed32(2_000, 42);
    extra.writeBytes(1_000_000, new byte[] {1, 2, 3});
    extra.writeBool(21, true);
    extra.flush();

    assertThat(ReminderCodec.decode(ID, newer.toByteArray())).isEqualTo(record);
    assertThat(ReminderCodec.versionOf(newer.toByteArray())).isEqualTo(record.version());
  }

  @Test
  void decode_unknownFieldsInsideScheduleMessage_skipsThem() throws Exception {
    // Repeat{start{seconds=1}, period{seconds=60}, 9: "future"}, written by hand.
    ByteArrayOutputStream repeat = new ByteArrayOutputStream();
    TagWriter r = TagWriterImpl.newInstance(ProtobufUtil.newSerializationContext(), repeat);
    r.writeBytes(1, new byte[] {0x08, 0x01});
    r.writeBytes(2, new byte[] {0x08, 0x3c});
    r.writeString(9, "future");
    r.flush();
    ByteArrayOutputStream value = new ByteArrayOutputStream();
    TagWriter w = TagWriterImpl.newInstance(ProtobufUtil.newSerializationContext(), value);
    w.writeUInt32(1, 1);
    w.writeFixed64(2, 99);
    w.writeBytes(7, repeat.toByteArray());
    w.writeInt64(8, NOW);
    w.writeUInt64(9, 1);
    w.writeInt64(10, NOW);
    w.flush();

    ReminderRecord decoded = ReminderCodec.decode(ID, value.toByteArray());

    assertThat(decoded.schedule())
        .isEqualTo(new Schedule.Repeat(Instant.ofEpochSecond(1), Duration.ofMinutes(1), null));
  }

  @Test
  void decode_unknownScheduleKind_throws() throws Exception {
    ByteArrayOutputStream value = new ByteArrayOutputStream();
    TagWriter w = TagWriterImpl.newInstance(ProtobufUtil.newSerializationContext(), value);
    w.writeUInt32(1, 1);
    w.writeFixed64(2, 99);
    w.writeBytes(30, new byte[0]); // a schedule kind this reader does not know
    w.writeInt64(8, NOW);
    w.writeUInt64(9, 1);
    w.writeInt64(10, NOW);
    w.flush();

    assertThatThrownBy(() -> ReminderCodec.decode(ID, value.toByteArray()))
        .isInstanceOf(ReminderCodecException.class)
        .hasMessageContaining("schedule");
  }

  @Test
  void decode_unknownEnumNumber_throws() throws Exception {
    byte[] valid = ReminderCodec.encode(record(new Schedule.Once(), ReminderState.PENDING, null));
    byte[] withDelivery = Arrays.copyOf(valid, valid.length + 2);
    withDelivery[valid.length] = (byte) (15 << 3); // delivery, varint
    withDelivery[valid.length + 1] = 7;

    assertThatThrownBy(() -> ReminderCodec.decode(ID, withDelivery))
        .isInstanceOf(ReminderCodecException.class)
        .hasMessageContaining("delivery mode 7");
  }

  @Test
  void decode_newerSchemaVersion_throws() {
    byte[] encoded = ReminderCodec.encode(record(new Schedule.Once(), ReminderState.FIRED, null));
    encoded[1] = 2;

    assertThatThrownBy(() -> ReminderCodec.decode(ID, encoded))
        .isInstanceOf(ReminderCodecException.class)
        .hasMessageContaining("schema version 2");
  }

  @Test
  void decode_empty_throws() {
    assertThatThrownBy(() -> ReminderCodec.decode(ID, new byte[0]))
        .isInstanceOf(ReminderCodecException.class)
        .hasMessageContaining("Not a Belfry reminder value");
  }

  @Test
  void decode_plainText_throws() {
    byte[] text = "{\"key\":\"not protobuf\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    assertThatThrownBy(() -> ReminderCodec.decode(ID, text))
        .isInstanceOf(ReminderCodecException.class);
  }

  @Test
  void decode_truncatedInsideField_throws() {
    byte[] encoded =
        ReminderCodec.encode(
            record(new Schedule.Every(Duration.ofDays(1)), ReminderState.PENDING, new byte[16]));
    int cut = 0;
    for (int length = 0; length < encoded.length; length++) {
      byte[] truncated = Arrays.copyOf(encoded, length);
      // Protobuf has no end marker: a cut at a field boundary past the required fields decodes
      // (without the lost fields; the store's own framing guards against that). Any other cut
      // must fail, and only with the codec's exception.
      try {
        ReminderRecord decoded = ReminderCodec.decode(ID, truncated);
        assertThat(decoded.payloadLength()).isZero();
      } catch (ReminderCodecException expected) {
        cut++;
      }
    }
    assertThat(cut).isGreaterThan(encoded.length - 3);
    assertThatThrownBy(() -> ReminderCodec.decode(ID, Arrays.copyOf(encoded, encoded.length - 1)))
        .isInstanceOf(ReminderCodecException.class);
  }

  @Test
  void decode_randomGarbage_throwsOnlyCodecException() {
    Random random = new Random(7);
    for (int i = 0; i < 10_000; i++) {
      byte[] garbage = new byte[random.nextInt(100)];
      random.nextBytes(garbage);
      if (random.nextBoolean() && garbage.length >= 2) {
        garbage[0] = 0x08; // get past the schema version check sometimes
        garbage[1] = 0x01;
      }
      try {
        ReminderCodec.decode(ID, garbage);
      } catch (ReminderCodecException expected) {
        // the one failure a caller has to handle
      }
    }
  }

  @Test
  void encode_typicalReminder_isSmall(TestReporter reporter) {
    ReminderRecord record =
        record(new Schedule.Once(), ReminderState.PENDING, "0123456789abcdef".getBytes());
    ReminderRecord recurring =
        withOptionals(MisfirePolicy.FIRE_ONCE, null, null, null, "application/json");

    int onceSize = ReminderCodec.encode(record).length;
    int recurringSize = ReminderCodec.encode(recurring).length;
    int tombstoneSize =
        ReminderCodec.encode(record.tombstone(ReminderState.FIRED, NOW + 60_001)).length;
    reporter.publishEntry("encodedBytes.once16BytePayload", String.valueOf(onceSize));
    reporter.publishEntry("encodedBytes.every15mJson16BytePayload", String.valueOf(recurringSize));
    reporter.publishEntry("encodedBytes.tombstone", String.valueOf(tombstoneSize));
    System.out.printf(
        "ReminderCodec sizes: once+16B payload=%d B, every(15m)+json+16B=%d B, tombstone=%d B%n",
        onceSize, recurringSize, tombstoneSize);

    assertThat(onceSize).isLessThan(80);
    assertThat(recurringSize).isLessThan(80);
  }

  @Test
  void versionOf_encoded_returnsVersionWithoutDecoding() {
    ReminderRecord record = record(new Schedule.Once(), ReminderState.PENDING, null);

    assertThat(ReminderCodec.versionOf(ReminderCodec.encode(record))).isEqualTo(record.version());
    assertThatThrownBy(() -> ReminderCodec.versionOf(new byte[] {1, 2}))
        .isInstanceOf(ReminderCodecException.class);
  }

  private static ReminderRecord withOptionals(
      MisfirePolicy misfire, Long until, Integer max, Long deadline, String contentType) {
    return new ReminderRecord(
        ID,
        HybridLogicalClock.pack(NOW, 1),
        ReminderState.PENDING,
        new Schedule.Every(Duration.ofMinutes(15)),
        NOW + 900_000,
        4,
        until,
        max,
        misfire,
        deadline,
        DeliveryMode.AT_MOST_ONCE,
        "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.UTF_8),
        contentType,
        NOW,
        NOW + 2_700_000);
  }
}
