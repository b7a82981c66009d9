package io.belfry.reminders.model;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.Schedule;
import java.util.Arrays;
import java.util.Objects;

/**
 * The stored value of a reminder: one live version per {@link ReminderId}, or the tombstone that
 * ended it. Immutable; the payload is copied in and out, and compared by content.
 *
 * @param id the identity; in the cache it is the key, not part of the encoded value
 * @param version the {@link HybridLogicalClock} stamp of this version, positive
 * @param state {@link ReminderState#PENDING} or a tombstone state
 * @param schedule when the reminder recurs
 * @param nextDueMillis the scheduled (not actual) epoch millis of occurrence {@code occurrence}
 * @param occurrence the 1-based number of the next occurrence
 * @param untilMillis no occurrence is due after this instant; {@code null} for no end
 * @param maxOccurrences no more than this many occurrences; {@code null} for no limit
 * @param misfire what to do with overdue occurrences
 * @param deadlineMillis how late an occurrence may fire under {@link MisfirePolicy#SKIP}, in millis
 *     after its due time; {@code null} for no deadline
 * @param delivery how a fire reaches the application
 * @param payload opaque application data; never {@code null} (empty when none)
 * @param contentType media type of the payload; {@code null} when unknown
 * @param createdAtMillis when the reminder was first set
 * @param updatedAtMillis when this version was written
 * @param progress the at-least-once delivery of the due occurrence under way; {@code null} when
 *     none
 */
public record ReminderRecord(
    ReminderId id,
    long version,
    ReminderState state,
    Schedule schedule,
    long nextDueMillis,
    long occurrence,
    Long untilMillis,
    Integer maxOccurrences,
    MisfirePolicy misfire,
    Long deadlineMillis,
    DeliveryMode delivery,
    byte[] payload,
    String contentType,
    long createdAtMillis,
    long updatedAtMillis,
    DeliveryProgress progress) {

  private static final byte[] NO_PAYLOAD = new byte[0];

  /** A record with no delivery under way. */
  public ReminderRecord(
      ReminderId id,
      long version,
      ReminderState state,
      Schedule schedule,
      long nextDueMillis,
      long occurrence,
      Long untilMillis,
      Integer maxOccurrences,
      MisfirePolicy misfire,
      Long deadlineMillis,
      DeliveryMode delivery,
      byte[] payload,
      String contentType,
      long createdAtMillis,
      long updatedAtMillis) {
    this(
        id,
        version,
        state,
        schedule,
        nextDueMillis,
        occurrence,
        untilMillis,
        maxOccurrences,
        misfire,
        deadlineMillis,
        delivery,
        payload,
        contentType,
        createdAtMillis,
        updatedAtMillis,
        null);
  }

  public ReminderRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(misfire, "misfire");
    Objects.requireNonNull(delivery, "delivery");
    if (version <= 0) {
      throw new IllegalArgumentException("version must be positive, was " + version);
    }
    if (occurrence < 1) {
      throw new IllegalArgumentException("occurrence is 1-based, was " + occurrence);
    }
    if (maxOccurrences != null && maxOccurrences < 1) {
      throw new IllegalArgumentException("maxOccurrences must be >= 1, was " + maxOccurrences);
    }
    if (deadlineMillis != null && deadlineMillis < 0) {
      throw new IllegalArgumentException("deadlineMillis must be >= 0, was " + deadlineMillis);
    }
    payload = payload == null || payload.length == 0 ? NO_PAYLOAD : payload.clone();
    if ((state == ReminderState.DELIVERING || state == ReminderState.DEAD_LETTER)
        && progress == null) {
      throw new IllegalArgumentException(state + " needs the delivery's progress");
    }
  }

  /** A copy of the payload: the record stays immutable whatever the caller does with it. */
  @Override
  public byte[] payload() {
    return payload.length == 0 ? NO_PAYLOAD : payload.clone();
  }

  /** The payload's length, without copying it. */
  public int payloadLength() {
    return payload.length;
  }

  /** Whether this entry only records the end of the reminder. */
  public boolean isTombstone() {
    return state.isTombstone();
  }

  /**
   * What a fire of the due occurrence carries: the version it was first due in, which stays the
   * same across the attempts of an at-least-once delivery.
   */
  public long fence() {
    return progress == null ? version : progress.fence();
  }

  /** How many deliveries of the due occurrence have been started (at-least-once); 0 if none. */
  public int attempts() {
    return progress == null ? 0 : progress.attempts();
  }

  /**
   * When an armed entry comes due: the occurrence's due time, or, while an at-least-once delivery
   * is under way, the lease's expiry or the next attempt.
   */
  public long armAtMillis() {
    return progress == null || !state.isArmed() ? nextDueMillis : progress.wakeAtMillis();
  }

  /**
   * The lease an at-least-once delivery takes on this armed entry: {@code holder} delivers attempt
   * {@link #attempts()} + 1 of the same fence until {@code expiresAtMillis}.
   */
  public ReminderRecord leased(
      long newVersion, String holder, long expiresAtMillis, long nowMillis) {
    requireState(state.isArmed(), "lease");
    return with(
        newVersion,
        ReminderState.DELIVERING,
        new DeliveryProgress(
            fence(),
            attempts() + 1,
            holder,
            expiresAtMillis,
            progress == null ? null : progress.lastError()),
        nowMillis);
  }

  /** This lease, held longer by the same holder, for the same attempt. */
  public ReminderRecord renewed(long newVersion, long expiresAtMillis, long nowMillis) {
    requireState(state == ReminderState.DELIVERING, "renew");
    return with(
        newVersion,
        ReminderState.DELIVERING,
        new DeliveryProgress(
            progress.fence(),
            progress.attempts(),
            progress.leaseHolder(),
            expiresAtMillis,
            progress.lastError()),
        nowMillis);
  }

  /** After a failed attempt: pending again, due for the next attempt at {@code retryAtMillis}. */
  public ReminderRecord retryAt(long newVersion, long retryAtMillis, String error, long nowMillis) {
    requireState(state == ReminderState.DELIVERING, "schedule a retry of");
    return with(
        newVersion,
        ReminderState.PENDING,
        new DeliveryProgress(
            progress.fence(), progress.attempts(), progress.leaseHolder(), retryAtMillis, error),
        nowMillis);
  }

  /** After the last attempt failed: kept, with its payload, until an operator acts. */
  public ReminderRecord deadLettered(long newVersion, String error, long nowMillis) {
    requireState(state == ReminderState.DELIVERING, "dead-letter");
    return with(
        newVersion,
        ReminderState.DEAD_LETTER,
        new DeliveryProgress(
            progress.fence(), progress.attempts(), progress.leaseHolder(), nowMillis, error),
        nowMillis);
  }

  /**
   * A dead letter an operator sends again: pending at once, same fence, attempts counted afresh.
   */
  public ReminderRecord redelivered(long newVersion, long nowMillis) {
    requireState(state == ReminderState.DEAD_LETTER, "redeliver");
    return with(
        newVersion,
        ReminderState.PENDING,
        new DeliveryProgress(progress.fence(), 0, null, nowMillis, progress.lastError()),
        nowMillis);
  }

  /**
   * This armed entry again, unchanged but for a newer version and the write time: what is put back
   * over a successor when the fire that wrote it is undone. Written under its old version it would
   * lose to the successor wherever the two meet, and its due occurrence would not fire. A pending
   * entry's fence is its version, so the fire that follows carries the new one; the undone fire was
   * never delivered.
   */
  public ReminderRecord reissued(long newVersion, long nowMillis) {
    requireState(state.isArmed(), "reissue");
    return with(newVersion, state, progress, nowMillis);
  }

  private void requireState(boolean allowed, String what) {
    if (!allowed) {
      throw new IllegalStateException("Cannot " + what + " a reminder in state " + state);
    }
  }

  private ReminderRecord with(
      long newVersion, ReminderState newState, DeliveryProgress newProgress, long nowMillis) {
    return new ReminderRecord(
        id,
        newVersion,
        newState,
        schedule,
        nextDueMillis,
        occurrence,
        untilMillis,
        maxOccurrences,
        misfire,
        deadlineMillis,
        delivery,
        payload,
        contentType,
        createdAtMillis,
        nowMillis,
        newProgress);
  }

  /**
   * The tombstone that ends this reminder: same id, version and schedule facts, the given end state
   * and time, and no payload, which a tombstone never needs and which would cost memory for the
   * whole tombstone TTL. The version is kept: the tombstone replaces exactly this version and wins
   * over it on merge.
   */
  public ReminderRecord tombstone(ReminderState endState, long atMillis) {
    Objects.requireNonNull(endState, "endState");
    if (!endState.isTombstone()) {
      throw new IllegalArgumentException("Not a tombstone state: " + endState);
    }
    return new ReminderRecord(
        id,
        version,
        endState,
        schedule,
        nextDueMillis,
        occurrence,
        untilMillis,
        maxOccurrences,
        misfire,
        deadlineMillis,
        delivery,
        NO_PAYLOAD,
        null,
        createdAtMillis,
        atMillis,
        progress);
  }

  /** The entry for the next occurrence of a recurring reminder, under a new version. */
  public ReminderRecord withNext(
      long newVersion, long newNextDueMillis, long newOccurrence, long newUpdatedAtMillis) {
    return new ReminderRecord(
        id,
        newVersion,
        ReminderState.PENDING,
        schedule,
        newNextDueMillis,
        newOccurrence,
        untilMillis,
        maxOccurrences,
        misfire,
        deadlineMillis,
        delivery,
        payload,
        contentType,
        createdAtMillis,
        newUpdatedAtMillis);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ReminderRecord)) {
      return false;
    }
    ReminderRecord that = (ReminderRecord) o;
    return version == that.version
        && nextDueMillis == that.nextDueMillis
        && occurrence == that.occurrence
        && createdAtMillis == that.createdAtMillis
        && updatedAtMillis == that.updatedAtMillis
        && id.equals(that.id)
        && state == that.state
        && schedule.equals(that.schedule)
        && Objects.equals(untilMillis, that.untilMillis)
        && Objects.equals(maxOccurrences, that.maxOccurrences)
        && misfire == that.misfire
        && Objects.equals(deadlineMillis, that.deadlineMillis)
        && delivery == that.delivery
        && Arrays.equals(payload, that.payload)
        && Objects.equals(contentType, that.contentType)
        && Objects.equals(progress, that.progress);
  }

  @Override
  public int hashCode() {
    int h =
        Objects.hash(
            id,
            version,
            state,
            schedule,
            nextDueMillis,
            occurrence,
            untilMillis,
            maxOccurrences,
            misfire,
            deadlineMillis,
            delivery,
            contentType,
            createdAtMillis,
            updatedAtMillis,
            progress);
    return 31 * h + Arrays.hashCode(payload);
  }

  /** Shows the payload's size, not its content: payloads may be large or sensitive. */
  @Override
  public String toString() {
    return "ReminderRecord[id="
        + id.cacheKey()
        + ", version="
        + version
        + ", state="
        + state
        + ", schedule="
        + schedule
        + ", nextDueMillis="
        + nextDueMillis
        + ", occurrence="
        + occurrence
        + ", untilMillis="
        + untilMillis
        + ", maxOccurrences="
        + maxOccurrences
        + ", misfire="
        + misfire
        + ", deadlineMillis="
        + deadlineMillis
        + ", delivery="
        + delivery
        + ", payload="
        + payload.length
        + " bytes, contentType="
        + contentType
        + ", createdAtMillis="
        + createdAtMillis
        + ", updatedAtMillis="
        + updatedAtMillis
        + (progress == null
            ? ""
            : ", fence="
                + progress.fence()
                + ", attempts="
                + progress.attempts()
                + ", leaseHolder="
                + progress.leaseHolder()
                + ", wakeAtMillis="
                + progress.wakeAtMillis())
        + "]";
  }
}
