package io.belfry.reminders.model;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.Schedule;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;
import org.infinispan.protostream.ImmutableSerializationContext;
import org.infinispan.protostream.ProtobufUtil;
import org.infinispan.protostream.TagReader;
import org.infinispan.protostream.TagWriter;
import org.infinispan.protostream.descriptors.WireType;
import org.infinispan.protostream.impl.TagReaderImpl;
import org.infinispan.protostream.impl.TagWriterImpl;

/**
 * Encodes a {@link ReminderRecord} as the cache value: protobuf wire format, schema {@code
 * proto/belfry-reminder.proto}, written and read with ProtoStream's {@link TagWriter}/{@link
 * TagReader} (the library WildFly's Infinispan ships), so the value is plain bytes that any
 * deployment, the console and a future Belfry can read.
 *
 * <p>Hand-written rather than an annotated marshaller: the value must not depend on classes of a
 * deployment (Stack notes, pitfall 5), and the wire format is the contract, fixed field by field.
 * Unknown fields are skipped, so a newer writer can add fields that older readers ignore. The
 * {@link ReminderId} is not part of the value: it is the cache key.
 *
 * <p>Stateless and thread-safe.
 */
public final class ReminderCodec {

  /** The schema this codec writes and the newest it reads. */
  public static final int SCHEMA_VERSION = 1;

  // Field numbers of message Reminder; see the .proto for their meaning.
  static final int F_SCHEMA_VERSION = 1;
  static final int F_VERSION = 2;
  static final int F_STATE = 3;
  static final int F_ONCE = 4;
  static final int F_EVERY = 5;
  static final int F_CRON = 6;
  static final int F_REPEAT = 7;
  static final int F_NEXT_DUE = 8;
  static final int F_OCCURRENCE = 9;
  static final int F_CREATED_AT = 10;
  static final int F_UPDATED_AFTER_CREATED = 11;
  static final int F_PAYLOAD = 12;
  static final int F_CONTENT_TYPE = 13;
  static final int F_MISFIRE = 14;
  static final int F_DELIVERY = 15;
  static final int F_UNTIL = 16;
  static final int F_MAX_OCCURRENCES = 17;
  static final int F_DEADLINE = 18;
  static final int F_PROGRESS = 19;
  static final int F_WRITE_STAMP = 20;

  // Duration / Timestamp
  private static final int F_SECONDS = 1;
  private static final int F_NANOS = 2;
  // Every
  private static final int F_INTERVAL = 1;
  // Cron
  private static final int F_EXPRESSION = 1;
  private static final int F_ZONE = 2;
  // Repeat
  private static final int F_START = 1;
  private static final int F_PERIOD = 2;
  private static final int F_REPETITIONS = 3;
  // DeliveryProgress
  private static final int F_FENCE = 1;
  private static final int F_ATTEMPTS = 2;
  private static final int F_LEASE_HOLDER = 3;
  private static final int F_WAKE_AT = 4;
  private static final int F_LAST_ERROR = 5;

  private static final int VARINT = WireType.WIRETYPE_VARINT;
  private static final int FIXED64 = WireType.WIRETYPE_FIXED64;
  private static final int BYTES = WireType.WIRETYPE_LENGTH_DELIMITED;

  /** Room for the fixed fields of a typical reminder, so the buffer rarely grows. */
  private static final int BASE_CAPACITY = 64;

  // The tag writer and reader need a context, though the codec registers no marshallers in it.
  private static final ImmutableSerializationContext CONTEXT =
      ProtobufUtil.newSerializationContext();

  private ReminderCodec() {}

  /** The cache value of {@code record}. */
  public static byte[] encode(ReminderRecord record) {
    return encode(record, false, 0);
  }

  /**
   * The cache value of {@code record}, made unique to one write by {@code writeStamp} (random),
   * which readers skip. Why: a conditional write Infinispan retries after a topology change also
   * succeeds on its own new value (ISPN-3422), so two owners firing one reminder in the same
   * millisecond, with equal tombstones, were both told they won; stamped, each write's bytes are
   * its own (the value's .proto, field 20).
   */
  public static byte[] encode(ReminderRecord record, long writeStamp) {
    return encode(record, true, writeStamp);
  }

  private static byte[] encode(ReminderRecord record, boolean stamped, long writeStamp) {
    Objects.requireNonNull(record, "record");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(BASE_CAPACITY + record.payloadLength());
    try {
      TagWriter out = TagWriterImpl.newInstance(CONTEXT, bytes);
      out.writeUInt32(F_SCHEMA_VERSION, SCHEMA_VERSION);
      out.writeFixed64(F_VERSION, record.version());
      if (record.state() != ReminderState.PENDING) {
        out.writeEnum(F_STATE, stateNumber(record.state()));
      }
      writeSchedule(out, record.schedule());
      out.writeInt64(F_NEXT_DUE, record.nextDueMillis());
      out.writeUInt64(F_OCCURRENCE, record.occurrence());
      out.writeInt64(F_CREATED_AT, record.createdAtMillis());
      long updatedAfterCreated = record.updatedAtMillis() - record.createdAtMillis();
      if (updatedAfterCreated != 0) {
        out.writeSInt64(F_UPDATED_AFTER_CREATED, updatedAfterCreated);
      }
      if (record.payloadLength() > 0) {
        out.writeBytes(F_PAYLOAD, record.payload());
      }
      if (record.contentType() != null) {
        out.writeString(F_CONTENT_TYPE, record.contentType());
      }
      if (record.misfire() != MisfirePolicy.FIRE_ONCE) {
        out.writeEnum(F_MISFIRE, misfireNumber(record.misfire()));
      }
      if (record.delivery() != DeliveryMode.AT_MOST_ONCE) {
        out.writeEnum(F_DELIVERY, deliveryNumber(record.delivery()));
      }
      if (record.untilMillis() != null) {
        out.writeInt64(F_UNTIL, record.untilMillis());
      }
      if (record.maxOccurrences() != null) {
        out.writeInt32(F_MAX_OCCURRENCES, record.maxOccurrences());
      }
      if (record.deadlineMillis() != null) {
        out.writeInt64(F_DEADLINE, record.deadlineMillis());
      }
      if (record.progress() != null) {
        out.writeBytes(F_PROGRESS, progress(record.progress()));
      }
      if (stamped) {
        out.writeFixed64(F_WRITE_STAMP, writeStamp);
      }
      out.flush();
    } catch (IOException e) {
      // Writing to memory does not fail; an IOException here is a bug in the writer.
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * The record stored under {@code id} as {@code encoded}.
   *
   * @throws ReminderCodecException if {@code encoded} is not a reminder value of a schema this
   *     codec reads
   */
  public static ReminderRecord decode(ReminderId id, byte[] encoded) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(encoded, "encoded");
    try {
      return read(id, encoded);
    } catch (ReminderCodecException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      // Malformed varints, lengths past the end, invalid field values: all mean corrupt bytes.
      throw new ReminderCodecException(
          "Corrupt reminder value for " + id.cacheKey() + " (" + encoded.length + " bytes)", e);
    }
  }

  /**
   * The version of an encoded value without decoding the rest, e.g. to advance the clock past every
   * persisted version at boot.
   *
   * @throws ReminderCodecException if {@code encoded} is not a reminder value
   */
  public static long versionOf(byte[] encoded) {
    Objects.requireNonNull(encoded, "encoded");
    try {
      TagReader in = reader(encoded);
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        if (tag == WireType.makeTag(F_VERSION, FIXED64)) {
          return in.readFixed64();
        }
        skip(in, tag);
      }
    } catch (ReminderCodecException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new ReminderCodecException("Corrupt reminder value (" + encoded.length + " bytes)", e);
    }
    throw new ReminderCodecException("Reminder value has no version");
  }

  private static ReminderRecord read(ReminderId id, byte[] encoded) throws IOException {
    TagReader in = reader(encoded);
    Long version = null;
    ReminderState state = ReminderState.PENDING;
    Schedule schedule = null;
    Long nextDue = null;
    Long occurrence = null;
    Long createdAt = null;
    long updatedAfterCreated = 0;
    byte[] payload = null;
    String contentType = null;
    MisfirePolicy misfire = MisfirePolicy.FIRE_ONCE;
    DeliveryMode delivery = DeliveryMode.AT_MOST_ONCE;
    Long until = null;
    Integer maxOccurrences = null;
    Long deadline = null;
    DeliveryProgress progress = null;

    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      int field = WireType.getTagFieldNumber(tag);
      int wireType = WireType.getTagWireType(tag);
      if (field > F_PROGRESS || !isExpected(field, wireType)) {
        // The write stamp (not part of the record), a field of a newer schema, or a known number
        // with another type, which this reader cannot interpret: skip it, as protobuf's
        // compatibility rules require.
        skip(in, tag);
        continue;
      }
      switch (field) {
        case F_VERSION -> version = in.readFixed64();
        case F_STATE -> state = state(in.readEnum());
        case F_ONCE -> {
          in.readByteArray(); // Once has no fields; any from a newer writer are ignored.
          schedule = new Schedule.Once();
        }
        case F_EVERY -> schedule = readEvery(in.readByteArray());
        case F_CRON -> schedule = readCron(in.readByteArray());
        case F_REPEAT -> schedule = readRepeat(in.readByteArray());
        case F_NEXT_DUE -> nextDue = in.readInt64();
        case F_OCCURRENCE -> occurrence = in.readUInt64();
        case F_CREATED_AT -> createdAt = in.readInt64();
        case F_UPDATED_AFTER_CREATED -> updatedAfterCreated = in.readSInt64();
        case F_PAYLOAD -> payload = in.readByteArray();
        case F_CONTENT_TYPE -> contentType = in.readString();
        case F_MISFIRE -> misfire = misfire(in.readEnum());
        case F_DELIVERY -> delivery = delivery(in.readEnum());
        case F_UNTIL -> until = in.readInt64();
        case F_MAX_OCCURRENCES -> maxOccurrences = in.readInt32();
        case F_DEADLINE -> deadline = in.readInt64();
        case F_PROGRESS -> progress = readProgress(in.readByteArray());
        default -> throw new IllegalStateException("Unhandled field " + field);
      }
    }
    require(version, "version", id);
    require(schedule, "schedule", id);
    require(nextDue, "next_due_millis", id);
    require(occurrence, "occurrence", id);
    require(createdAt, "created_at_millis", id);
    return new ReminderRecord(
        id,
        version,
        state,
        schedule,
        nextDue,
        occurrence,
        until,
        maxOccurrences,
        misfire,
        deadline,
        delivery,
        payload,
        contentType,
        createdAt,
        createdAt + updatedAfterCreated,
        progress);
  }

  /** A reader positioned after the schema version, which it has checked. */
  static TagReader reader(byte[] encoded) throws IOException {
    TagReader in = TagReaderImpl.newInstance(CONTEXT, encoded);
    // The schema version opens every value: checking it first turns most garbage into a clear
    // error.
    if (in.readTag() != WireType.makeTag(F_SCHEMA_VERSION, VARINT)) {
      throw new ReminderCodecException(
          "Not a Belfry reminder value: it does not start with a schema version ("
              + encoded.length
              + " bytes)");
    }
    int schemaVersion = in.readUInt32();
    if (schemaVersion < 1 || schemaVersion > SCHEMA_VERSION) {
      throw new ReminderCodecException(
          "Reminder value has schema version "
              + schemaVersion
              + "; this Belfry reads up to "
              + SCHEMA_VERSION);
    }
    return in;
  }

  private static boolean isExpected(int field, int wireType) {
    return switch (field) {
      case F_VERSION -> wireType == FIXED64;
      case F_ONCE, F_EVERY, F_CRON, F_REPEAT, F_PAYLOAD, F_CONTENT_TYPE, F_PROGRESS ->
          wireType == BYTES;
      case F_SCHEMA_VERSION -> false; // only as the first field; a repeat is skipped
      default -> wireType == VARINT;
    };
  }

  static void skip(TagReader in, int tag) throws IOException {
    if (!in.skipField(tag)) {
      // An end-group tag with no group open.
      throw new ReminderCodecException("Malformed reminder value: unexpected end-group tag");
    }
  }

  private static void require(Object value, String field, ReminderId id) {
    if (value == null) {
      throw new ReminderCodecException(
          "Reminder value for " + id.cacheKey() + " lacks required field " + field);
    }
  }

  // --- Schedule -------------------------------------------------------------------------------

  private static void writeSchedule(TagWriter out, Schedule schedule) throws IOException {
    if (schedule instanceof Schedule.Once) {
      out.writeBytes(F_ONCE, new byte[0]);
    } else if (schedule instanceof Schedule.Every every) {
      byte[] interval = duration(nonNull(every.interval(), "Every.interval"));
      out.writeBytes(F_EVERY, message(w -> w.writeBytes(F_INTERVAL, interval)));
    } else if (schedule instanceof Schedule.Cron cron) {
      String expression = nonNull(cron.expression(), "Cron.expression");
      String zone = nonNull(cron.zone(), "Cron.zone").getId();
      out.writeBytes(
          F_CRON,
          message(
              w -> {
                w.writeString(F_EXPRESSION, expression);
                w.writeString(F_ZONE, zone);
              }));
    } else if (schedule instanceof Schedule.Repeat repeat) {
      Instant startInstant = nonNull(repeat.start(), "Repeat.start");
      byte[] start = secondsAndNanos(startInstant.getEpochSecond(), startInstant.getNano());
      byte[] period = duration(nonNull(repeat.period(), "Repeat.period"));
      Integer repetitions = repeat.repetitions();
      out.writeBytes(
          F_REPEAT,
          message(
              w -> {
                w.writeBytes(F_START, start);
                w.writeBytes(F_PERIOD, period);
                if (repetitions != null) {
                  w.writeInt32(F_REPETITIONS, repetitions);
                }
              }));
    } else {
      // Schedule is sealed; a new kind must get a field number here and in the .proto.
      throw new IllegalArgumentException("No encoding for schedule " + schedule);
    }
  }

  private static Schedule readEvery(byte[] message) throws IOException {
    TagReader in = TagReaderImpl.newInstance(CONTEXT, message);
    Duration interval = null;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag == WireType.makeTag(F_INTERVAL, BYTES)) {
        interval = readDuration(in.readByteArray());
      } else {
        skip(in, tag);
      }
    }
    return new Schedule.Every(requireField(interval, "Every.interval"));
  }

  private static Schedule readCron(byte[] message) throws IOException {
    TagReader in = TagReaderImpl.newInstance(CONTEXT, message);
    String expression = null;
    String zone = null;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag == WireType.makeTag(F_EXPRESSION, BYTES)) {
        expression = in.readString();
      } else if (tag == WireType.makeTag(F_ZONE, BYTES)) {
        zone = in.readString();
      } else {
        skip(in, tag);
      }
    }
    try {
      return new Schedule.Cron(
          requireField(expression, "Cron.expression"), ZoneId.of(requireField(zone, "Cron.zone")));
    } catch (DateTimeException e) {
      throw new ReminderCodecException("Reminder value has an unknown time zone: " + zone, e);
    }
  }

  private static Schedule readRepeat(byte[] message) throws IOException {
    TagReader in = TagReaderImpl.newInstance(CONTEXT, message);
    Instant start = null;
    Duration period = null;
    Integer repetitions = null;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag == WireType.makeTag(F_START, BYTES)) {
        long[] parts = readSecondsAndNanos(in.readByteArray());
        start = Instant.ofEpochSecond(parts[0], parts[1]);
      } else if (tag == WireType.makeTag(F_PERIOD, BYTES)) {
        period = readDuration(in.readByteArray());
      } else if (tag == WireType.makeTag(F_REPETITIONS, VARINT)) {
        repetitions = in.readInt32();
      } else {
        skip(in, tag);
      }
    }
    return new Schedule.Repeat(
        requireField(start, "Repeat.start"), requireField(period, "Repeat.period"), repetitions);
  }

  // --- Delivery progress ----------------------------------------------------------------------

  private static byte[] progress(DeliveryProgress progress) throws IOException {
    return message(
        w -> {
          w.writeFixed64(F_FENCE, progress.fence());
          w.writeUInt32(F_ATTEMPTS, progress.attempts());
          if (progress.leaseHolder() != null) {
            w.writeString(F_LEASE_HOLDER, progress.leaseHolder());
          }
          w.writeInt64(F_WAKE_AT, progress.wakeAtMillis());
          if (progress.lastError() != null) {
            w.writeString(F_LAST_ERROR, progress.lastError());
          }
        });
  }

  private static DeliveryProgress readProgress(byte[] message) throws IOException {
    TagReader in = TagReaderImpl.newInstance(CONTEXT, message);
    Long fence = null;
    int attempts = 0;
    String holder = null;
    Long wakeAt = null;
    String lastError = null;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag == WireType.makeTag(F_FENCE, FIXED64)) {
        fence = in.readFixed64();
      } else if (tag == WireType.makeTag(F_ATTEMPTS, VARINT)) {
        attempts = in.readUInt32();
      } else if (tag == WireType.makeTag(F_LEASE_HOLDER, BYTES)) {
        holder = in.readString();
      } else if (tag == WireType.makeTag(F_WAKE_AT, VARINT)) {
        wakeAt = in.readInt64();
      } else if (tag == WireType.makeTag(F_LAST_ERROR, BYTES)) {
        lastError = in.readString();
      } else {
        skip(in, tag);
      }
    }
    return new DeliveryProgress(
        requireField(fence, "DeliveryProgress.fence"),
        attempts,
        holder,
        requireField(wakeAt, "DeliveryProgress.wake_at_millis"),
        lastError);
  }

  private static byte[] duration(Duration duration) throws IOException {
    return secondsAndNanos(duration.getSeconds(), duration.getNano());
  }

  private static Duration readDuration(byte[] message) throws IOException {
    long[] parts = readSecondsAndNanos(message);
    return Duration.ofSeconds(parts[0], parts[1]);
  }

  private static byte[] secondsAndNanos(long seconds, int nanos) throws IOException {
    return message(
        w -> {
          if (seconds != 0) {
            w.writeInt64(F_SECONDS, seconds);
          }
          if (nanos != 0) {
            w.writeInt32(F_NANOS, nanos);
          }
        });
  }

  private static long[] readSecondsAndNanos(byte[] message) throws IOException {
    TagReader in = TagReaderImpl.newInstance(CONTEXT, message);
    long seconds = 0;
    long nanos = 0;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag == WireType.makeTag(F_SECONDS, VARINT)) {
        seconds = in.readInt64();
      } else if (tag == WireType.makeTag(F_NANOS, VARINT)) {
        nanos = in.readInt32();
      } else {
        skip(in, tag);
      }
    }
    return new long[] {seconds, nanos};
  }

  @FunctionalInterface
  private interface MessageBody {
    void writeTo(TagWriter writer) throws IOException;
  }

  private static byte[] message(MessageBody body) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
    TagWriter writer = TagWriterImpl.newInstance(CONTEXT, bytes);
    body.writeTo(writer);
    writer.flush();
    return bytes.toByteArray();
  }

  private static <T> T nonNull(T value, String what) {
    if (value == null) {
      throw new IllegalArgumentException("Cannot encode a schedule with a null " + what);
    }
    return value;
  }

  private static <T> T requireField(T value, String what) {
    if (value == null) {
      throw new ReminderCodecException("Reminder value lacks " + what);
    }
    return value;
  }

  // --- Enums: fixed numbers, never ordinals, so reordering a Java enum cannot corrupt the store.

  static int stateNumber(ReminderState state) {
    return switch (state) {
      case PENDING -> 0;
      case FIRED -> 1;
      case CANCELLED -> 2;
      case SKIPPED -> 3;
      case DELIVERING -> 4;
      case DEAD_LETTER -> 5;
    };
  }

  static ReminderState state(int number) {
    return switch (number) {
      case 0 -> ReminderState.PENDING;
      case 1 -> ReminderState.FIRED;
      case 2 -> ReminderState.CANCELLED;
      case 3 -> ReminderState.SKIPPED;
      case 4 -> ReminderState.DELIVERING;
      case 5 -> ReminderState.DEAD_LETTER;
      default -> throw unknownEnum("state", number);
    };
  }

  private static int misfireNumber(MisfirePolicy misfire) {
    return switch (misfire) {
      case FIRE_ONCE -> 0;
      case FIRE_ALL -> 1;
      case SKIP -> 2;
    };
  }

  private static MisfirePolicy misfire(int number) {
    return switch (number) {
      case 0 -> MisfirePolicy.FIRE_ONCE;
      case 1 -> MisfirePolicy.FIRE_ALL;
      case 2 -> MisfirePolicy.SKIP;
      default -> throw unknownEnum("misfire policy", number);
    };
  }

  private static int deliveryNumber(DeliveryMode delivery) {
    return switch (delivery) {
      case AT_MOST_ONCE -> 0;
      case AT_LEAST_ONCE -> 1;
    };
  }

  private static DeliveryMode delivery(int number) {
    return switch (number) {
      case 0 -> DeliveryMode.AT_MOST_ONCE;
      case 1 -> DeliveryMode.AT_LEAST_ONCE;
      default -> throw unknownEnum("delivery mode", number);
    };
  }

  private static ReminderCodecException unknownEnum(String what, int number) {
    // Guessing would be worse than failing: e.g. an unknown delivery mode changes the guarantee.
    return new ReminderCodecException(
        "Reminder value has unknown " + what + " " + number + " (written by a newer Belfry?)");
  }
}
