package io.belfry.reminders.model;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Mints reminder versions: a hybrid logical clock packed into a positive {@code long}.
 *
 * <p>Idea: Kulkarni, Demirbas et al., "Logical Physical Clocks and Consistent Snapshots in Globally
 * Distributed Databases" (2014). A version is {@code wallMillis << 16 | counter}: the high 48 bits
 * (top bit always 0, so the value stays positive until the year 6429) are wall-clock milliseconds,
 * the low 16 bits a counter that orders versions minted within the same millisecond. Because the
 * packing is a plain {@code long}, "newer" is just {@code >}, and versions stay close to wall-clock
 * time, which makes them readable in the console and in audit records.
 *
 * <p>Guarantees: {@link #mint()} is strictly increasing on one instance, even if the wall clock
 * stands still or goes backwards, and even if the 16-bit counter overflows (the counter carries
 * into the millisecond bits, i.e. the clock borrows the next millisecond). {@link #observe(long)}
 * makes every later mint exceed a version seen elsewhere: call it after boot with the highest
 * persisted version and for every replicated write, so that versions stay increasing per key across
 * restarts and nodes.
 *
 * <p>Two nodes can mint the same version (no node id breaks ties), which does no harm: versions are
 * compared per key only, and no two writers ever both write one key from the same value. Every
 * write is conditional on the value it replaces (or on its absence), so of nodes racing from one
 * value only one wins, and a successor is minted above what it replaces ({@link #mintAfter}); a
 * partition in which both sides could write is refused by the cache ({@code DENY_READ_WRITES}).
 * Equal versions can still make equal values, and a conditional write Infinispan retries after a
 * topology change also succeeds on its own new value: so every value written carries a random write
 * stamp besides ({@link ReminderCodec#encode(ReminderRecord, long)}), and two writes never put
 * equal bytes.
 *
 * <p>Thread-safe and lock-free: the state is one {@link AtomicLong} updated in a CAS loop.
 */
public final class HybridLogicalClock {

  public static final int COUNTER_BITS = 16;
  public static final long MAX_COUNTER = (1L << COUNTER_BITS) - 1;

  /** The largest wall-clock millisecond that fits 48 bits with the sign bit clear. */
  public static final long MAX_MILLIS = (1L << (Long.SIZE - 1 - COUNTER_BITS)) - 1;

  private final LongSupplier wallClockMillis;
  private final AtomicLong last = new AtomicLong();

  /**
   * @param wallClockMillis epoch milliseconds, e.g. {@code System::currentTimeMillis} in production
   *     and a settable value in tests; need not be monotonic
   */
  public HybridLogicalClock(LongSupplier wallClockMillis) {
    this.wallClockMillis = Objects.requireNonNull(wallClockMillis, "wallClockMillis");
  }

  /** A new version, greater than every version minted or observed before by this instance. */
  public long mint() {
    long floor = pack(clampedWallMillis(), 0);
    while (true) {
      long previous = last.get();
      // previous + 1 carries a full counter into the next millisecond: "borrow the next ms".
      long next = Math.max(previous + 1, floor);
      if (next < 0) {
        throw new IllegalStateException("Version space exhausted after " + previous);
      }
      if (last.compareAndSet(previous, next)) {
        return next;
      }
    }
  }

  /**
   * A new version greater than {@code predecessor} as well: the version of a successor written over
   * {@code predecessor} (a fire's next occurrence, a lease, a retry). Every write this node sees is
   * observed as it arrives, but an entry can also be read before its notification is handled here
   * (a sweep or a topology change reads the replica; a listener that failed never observes it), and
   * a predecessor minted on a node whose clock runs ahead would then outrank its own successor:
   * under "higher version wins" the older value would beat the newer one on merge, and a hint for
   * the predecessor would block the successor's.
   */
  public long mintAfter(long predecessor) {
    observe(predecessor);
    return mint();
  }

  /**
   * Advances this clock past {@code seenVersion}, so that the next {@link #mint()} is greater.
   * Versions lower than one already seen are ignored; negative values are rejected since no clock
   * mints them.
   */
  public void observe(long seenVersion) {
    if (seenVersion < 0) {
      throw new IllegalArgumentException("Not a version: " + seenVersion);
    }
    last.accumulateAndGet(seenVersion, Math::max);
  }

  /** The highest version minted or observed so far (0 before any). */
  public long lastVersion() {
    return last.get();
  }

  /** The wall-clock milliseconds part of a version. */
  public static long millisOf(long version) {
    return version >>> COUNTER_BITS;
  }

  /** The counter part of a version. */
  public static int counterOf(long version) {
    return (int) (version & MAX_COUNTER);
  }

  /** The version made of {@code millis} and {@code counter}; for tests and for range queries. */
  public static long pack(long millis, int counter) {
    if (millis < 0 || millis > MAX_MILLIS) {
      throw new IllegalArgumentException("millis out of range: " + millis);
    }
    if (counter < 0 || counter > MAX_COUNTER) {
      throw new IllegalArgumentException("counter out of range: " + counter);
    }
    return (millis << COUNTER_BITS) | counter;
  }

  private long clampedWallMillis() {
    long millis = wallClockMillis.getAsLong();
    // A clock before 1970 is broken but must not break minting; the counter keeps order.
    if (millis < 0) {
      return 0;
    }
    if (millis > MAX_MILLIS) {
      throw new IllegalStateException("Wall clock beyond the version range: " + millis);
    }
    return millis;
  }
}
