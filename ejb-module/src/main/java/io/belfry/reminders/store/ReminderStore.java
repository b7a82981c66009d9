package io.belfry.reminders.store;

import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Where reminders live: one entry per {@link ReminderId}, the live version or its tombstone. Every
 * write is conditional on what was read, so concurrent writers (set, cancel, fire on another node)
 * never overwrite each other blindly; a write returns once it is stored and replicated.
 */
public interface ReminderStore {

  /** Visits one locally stored entry; raw, so that sweeps can skip decoding unchanged ones. */
  @FunctionalInterface
  interface EntryVisitor {
    void visit(String cacheKey, byte[] encoded);
  }

  /** Visits one locally stored entry of a known segment; see {@link #forEachLocalBySegment}. */
  @FunctionalInterface
  interface SegmentEntryVisitor {
    void visit(int segment, String cacheKey, byte[] encoded);
  }

  /** The entry of {@code id}, tombstones included. */
  Optional<StoredReminder> get(ReminderId id);

  /**
   * Writes {@code record} if its id has no entry.
   *
   * @return empty when written; otherwise the entry that is there
   */
  Optional<StoredReminder> putIfAbsent(ReminderRecord record);

  /**
   * {@link #putIfAbsent} without waiting, as {@link #replaceAsync} is to {@link #replace}: a batch
   * of sets issues its writes together. By default, the blocking {@code putIfAbsent}.
   */
  default CompletionStage<Optional<StoredReminder>> putIfAbsentAsync(ReminderRecord record) {
    try {
      return CompletableFuture.completedFuture(putIfAbsent(record));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Replaces {@code expected} by {@code next} if the entry is still exactly {@code expected}. */
  boolean replace(StoredReminder expected, ReminderRecord next);

  /**
   * {@link #replace} without waiting: the stage completes when the write is stored and replicated,
   * or fails as {@code replace} would throw. Many of these in flight share the cluster's round
   * trips, which is how a run commits a burst of due fires (group commit) instead of one replicated
   * write after the other. By default, the blocking {@code replace}.
   */
  default CompletionStage<Boolean> replaceAsync(StoredReminder expected, ReminderRecord next) {
    try {
      return CompletableFuture.completedFuture(replace(expected, next));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Runs {@code writes}, letting the store send the asynchronous writes they issue on this thread
   * ({@link #replaceAsync}, {@link #putIfAbsentAsync}) to the cluster together, as one command per
   * group, when {@code writes} returns or a group is full: a group commit shares one replicated
   * command instead of only its round trips. Their stages may therefore complete only after {@code
   * writes} has returned: {@code writes} must not wait for them. Each write still wins or loses on
   * its own, as alone. By default, {@code writes.run()}: each write goes at once.
   */
  default void writeTogether(Runnable writes) {
    writes.run();
  }

  /** Removes the entry if it is still exactly {@code expected}. */
  boolean remove(StoredReminder expected);

  /**
   * Visits the entries stored on this node (all of them in a replicated cache), optionally only
   * those of the given segments. Reads the local replica only; no remote calls.
   *
   * @param segments the segments to visit, or {@code null} for all
   */
  void forEachLocal(BitSet segments, EntryVisitor visitor);

  /**
   * {@link #forEachLocal} one segment at a time, in segment order, telling the visitor each entry's
   * segment: the scheduler tags its hints with it, which costs a marshalling of the key to compute
   * on WildFly.
   */
  default void forEachLocalBySegment(BitSet segments, SegmentEntryVisitor visitor) {
    for (int s = segments.nextSetBit(0); s >= 0; s = segments.nextSetBit(s + 1)) {
      int segment = s;
      BitSet one = new BitSet();
      one.set(segment);
      forEachLocal(one, (key, value) -> visitor.visit(segment, key, value));
    }
  }

  /**
   * Brings every replica of {@code id} to the newest version among them (the rule of {@link
   * VersionMerge}), with a write conditional on what the primary owner holds, and returns whether
   * they differed: for a node about to act on a value its own replica may hold older than the
   * others (see the resurrection guard's burial). With one replica there is nothing to settle.
   *
   * @throws RuntimeException if a replica cannot be read now (the topology changed)
   */
  default boolean settleReplicas(ReminderId id) {
    return false;
  }

  /**
   * What is stored under {@code id} after a write whose answer was lost, its replicas first brought
   * to one version ({@link #settleReplicas}). A lost answer can hide a write applied on some
   * replicas only: its primary owner died after sending it to this node's replica, and Infinispan's
   * retry on the next primary then found another value there. Read from this node's replica alone,
   * such a write was taken for stored and acknowledged while the primary, which fires it, never
   * held it (a CI chaos run of 2026-11-28 ended with an acknowledged reminder live on two replicas
   * and never fired, the primary's replica holding no live version). Settled first, the write is on
   * every replica or, having lost to what the primary held, on none, and the caller tries again.
   * The engine also reads back so after losing races in a row (a write decided by the primary loses
   * every race while this node's replica differs from the primary's) and while {@link
   * #replicasMayDiffer}.
   *
   * @throws StoreUnavailableException if a replica cannot be read now
   */
  default Optional<StoredReminder> readBack(ReminderId id) {
    settleReplicas(id);
    return get(id);
  }

  /**
   * Whether this node's replica may differ from the key's primary owner's now: the cache is
   * rebalancing, or its topology changed lately, while the settling of the keys written during the
   * change may still be running. Writers then read keys back with {@link #readBack}. False where
   * there is one replica.
   */
  default boolean replicasMayDiffer() {
    return false;
  }

  /**
   * Whether writes can succeed now, as far as this node knows: false on the minority side of a
   * partition, where every write is refused. A hint for callers that would otherwise try and fail
   * over and over; a write may still fail when this says yes.
   */
  default boolean acceptsWrites() {
    return true;
  }

  /**
   * Whether a read of a key this node's memory does not hold looks it up on disk: true when memory
   * is bounded and entries may be on disk only. Then a set of a new key is worth skipping its read
   * of the store (the key index can tell a key it has never seen); otherwise that read is a lookup
   * in memory and the key index is read only when something asks it.
   */
  default boolean readsThroughToDisk() {
    return false;
  }

  /**
   * A file named {@code name} in this node's store directory, where Belfry keeps what it wants to
   * find again at the next start, and which goes with the store (deleted with it, or replaced by a
   * backup's). Empty where the store has no directory this node can name.
   */
  default Optional<Path> fileBesideStore(String name) {
    return Optional.empty();
  }
}
