package io.belfry.reminders.model;

import java.io.IOException;
import java.util.Objects;
import org.infinispan.protostream.TagReader;
import org.infinispan.protostream.descriptors.WireType;

/**
 * What the listing filters and the live counts need of a stored reminder, read from its encoded
 * value without decoding the rest: the schedule, payload and delivery progress are skipped, not
 * built. Every node reads one on each write it applies, so it has to be cheap.
 *
 * @param state the reminder's state
 * @param nextDueMillis the scheduled epoch millis of its next (or, for a tombstone, last)
 *     occurrence, as {@link ReminderRecord#nextDueMillis()}
 */
public record ReminderSummary(ReminderState state, long nextDueMillis) {

  public ReminderSummary {
    Objects.requireNonNull(state, "state");
  }

  /**
   * The summary of an encoded value, as {@link ReminderCodec#decode} would find its state and next
   * due time.
   *
   * @throws ReminderCodecException if {@code encoded} is not a reminder value of a schema the codec
   *     reads, or lacks its next due time
   */
  public static ReminderSummary of(byte[] encoded) {
    Objects.requireNonNull(encoded, "encoded");
    try {
      return read(encoded);
    } catch (ReminderCodecException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new ReminderCodecException("Corrupt reminder value (" + encoded.length + " bytes)", e);
    }
  }

  private static ReminderSummary read(byte[] encoded) throws IOException {
    TagReader in = ReminderCodec.reader(encoded);
    int stateTag = WireType.makeTag(ReminderCodec.F_STATE, WireType.WIRETYPE_VARINT);
    int nextDueTag = WireType.makeTag(ReminderCodec.F_NEXT_DUE, WireType.WIRETYPE_VARINT);
    ReminderState state = ReminderState.PENDING;
    Long nextDue = null;
    // to the end, not to the next due time: protobuf allows fields in any order
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag == stateTag) {
        state = ReminderCodec.state(in.readEnum());
      } else if (tag == nextDueTag) {
        nextDue = in.readInt64();
      } else {
        ReminderCodec.skip(in, tag);
      }
    }
    if (nextDue == null) {
      throw new ReminderCodecException("Reminder value lacks next_due_millis");
    }
    return new ReminderSummary(state, nextDue);
  }
}
