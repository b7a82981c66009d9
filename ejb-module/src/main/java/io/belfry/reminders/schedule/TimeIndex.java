package io.belfry.reminders.schedule;

import io.belfry.reminders.model.ReminderId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The per-node index of owned reminders by due time: which reminder (and which version of it) to
 * look at next. Entries are hints: the firing path re-reads the store and checks the version, so
 * the index may hold stale versions without harm.
 *
 * <h2>Design</h2>
 *
 * <p>An <em>indexed</em> binary min-heap on due time (Sedgewick &amp; Wayne, <i>Algorithms</i>, 4th
 * ed., §2.4 "IndexMinPQ") whose elements are found by cache key through an open-addressing hash
 * table with linear probing and backward-shift deletion (Knuth, <i>TAOCP</i> vol. 3, §6.4,
 * Algorithm R), so that no deleted-slot markers accumulate. Both live in parallel primitive arrays:
 * per entry the heap stores the key reference, due time, version, the key's hash, the entry's table
 * slot and a tag (32 bytes), and the table one {@code int} at a load factor of at most 1/2 (8
 * bytes): about 40 bytes per entry plus the key, against roughly 100 for a {@code HashMap} of node
 * objects. Every operation is O(log n); {@link #nextDueMillis()} is O(1).
 *
 * <p>Entries are keyed by the reminder's cache key, not its {@link ReminderId}: the scheduler arms
 * them with the String the change feed hands it, the same instance the key index keeps (and the
 * cache, while it holds the entry), or with the one a read of the store found, which is the key
 * index's if it holds the key, and which the key index takes from here ({@link #heldKey}) if not:
 * so the index adds no copy of the key. An id would have been one more object and one more copy of
 * the key per reminder (about 80 bytes at a million, the largest share left of a bounded node's
 * heap; docs/performance/scale.md).
 *
 * <p>A hierarchical timing wheel (Varghese &amp; Lauck, "Hashed and Hierarchical Timing Wheels",
 * 1987; Caffeine's {@code TimerWheel}) gives O(1) insertion, but needs a linked node object per
 * timer plus a map from id to node, several times this memory at a million entries, and it only
 * buckets times coarsely; the heap pops exactly in due order, which the budgeted poll relies on.
 *
 * <p>A <em>tag</em> is a small non-negative number the caller may attach to an entry and read back
 * without recomputing it from the key: the scheduler tags each hint with its key's segment, which
 * on WildFly costs a marshalling of the key to compute ({@link SegmentedTimeIndex}). {@link
 * #UNTAGGED} when unknown.
 *
 * <p>Entries with the same due time are returned in no particular order. Due times are any {@code
 * long}; the index never reads a clock: "now" is a parameter of {@link #pollDue(long, int)}.
 *
 * <h2>Thread safety</h2>
 *
 * <p>Not thread-safe. The owning scheduler confines an index to one thread, or guards every call
 * with the same lock.
 */
public final class TimeIndex {

  /**
   * One hint: the reminder stored under {@code cacheKey} ({@link ReminderId#cacheKey()}) at {@code
   * version} is due at {@code dueMillis}.
   */
  public record Entry(String cacheKey, long version, long dueMillis, int tag) {
    public Entry {
      Objects.requireNonNull(cacheKey, "cacheKey");
    }

    /** An entry without a tag. */
    public Entry(String cacheKey, long version, long dueMillis) {
      this(cacheKey, version, dueMillis, UNTAGGED);
    }

    /** The reminder's id, parsed from its cache key on each call. */
    public ReminderId id() {
      return ReminderId.fromCacheKey(cacheKey);
    }
  }

  /** The tag of an entry put without one. */
  public static final int UNTAGGED = -1;

  private static final int MIN_CAPACITY = 16;

  // The heap, in parallel paged arrays indexed by heap position; valid in [0, size).
  private PagedArrays.Refs<String> keys;
  private PagedArrays.Longs dues;
  private PagedArrays.Longs versions;
  private PagedArrays.Ints hashes;
  private PagedArrays.Ints tags;

  /** The table slot that points at each heap position, to update it when the element moves. */
  private PagedArrays.Ints slots;

  /** Heap position + 1 of the entry whose id hashes here (after probing); 0 when free. */
  private PagedArrays.Ints table;

  private int capacity;
  private int tableMask;
  private int size;

  public TimeIndex() {
    allocate(MIN_CAPACITY);
  }

  /** The number of entries. */
  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /**
   * Adds the entry for {@code cacheKey}, replacing any entry it had, whatever that one's version;
   * an entry it had keeps its tag.
   */
  public void put(String cacheKey, long version, long dueMillis) {
    put(cacheKey, version, dueMillis, UNTAGGED);
  }

  /**
   * {@link #put(String, long, long)} with a tag; {@link #UNTAGGED} keeps the tag of an entry the
   * key had.
   */
  public void put(String cacheKey, long version, long dueMillis, int tag) {
    Objects.requireNonNull(cacheKey, "cacheKey");
    int hash = hash(cacheKey);
    int slot = find(cacheKey, hash);
    if (slot >= 0) {
      int k = table.get(slot) - 1;
      long oldDue = dues.get(k);
      versions.set(k, version);
      dues.set(k, dueMillis);
      if (tag != UNTAGGED) {
        tags.set(k, tag);
      }
      if (dueMillis < oldDue) {
        siftUp(k);
      } else if (dueMillis > oldDue) {
        siftDown(k);
      }
      return;
    }
    if (size == capacity) {
      resize(capacity * 2);
    }
    slot = freeSlot(hash);
    int k = size++;
    place(k, cacheKey, dueMillis, version, hash, slot, tag);
    siftUp(k);
  }

  /**
   * Puts the entry, with its tag, unless the index holds {@code cacheKey} at the same or a newer
   * version; returns whether it did.
   */
  public boolean putIfNewer(String cacheKey, long version, long dueMillis, int tag) {
    Objects.requireNonNull(cacheKey, "cacheKey");
    int slot = find(cacheKey, hash(cacheKey));
    if (slot >= 0 && versions.get(table.get(slot) - 1) >= version) {
      return false;
    }
    put(cacheKey, version, dueMillis, tag);
    return true;
  }

  /** Every entry, in no particular order; O(n). */
  public List<Entry> entries() {
    List<Entry> all = new ArrayList<>(size);
    for (int k = 0; k < size; k++) {
      all.add(entryAt(k));
    }
    return all;
  }

  /** Removes the entry of {@code cacheKey}; returns whether there was one. */
  public boolean remove(String cacheKey) {
    Objects.requireNonNull(cacheKey, "cacheKey");
    int slot = find(cacheKey, hash(cacheKey));
    if (slot < 0) {
      return false;
    }
    removeAt(table.get(slot) - 1);
    shrinkIfSparse();
    return true;
  }

  /**
   * Removes the entry of {@code cacheKey} only if it is for {@code version}, so that a late removal
   * for an old version cannot drop the hint of a newer one.
   */
  public boolean remove(String cacheKey, long version) {
    Objects.requireNonNull(cacheKey, "cacheKey");
    int slot = find(cacheKey, hash(cacheKey));
    if (slot < 0 || versions.get(table.get(slot) - 1) != version) {
      return false;
    }
    removeAt(table.get(slot) - 1);
    shrinkIfSparse();
    return true;
  }

  /** The entry of {@code cacheKey}, if any. */
  public Optional<Entry> get(String cacheKey) {
    Objects.requireNonNull(cacheKey, "cacheKey");
    int slot = find(cacheKey, hash(cacheKey));
    if (slot < 0) {
      return Optional.empty();
    }
    return Optional.of(entryAt(table.get(slot) - 1));
  }

  public boolean contains(String cacheKey) {
    Objects.requireNonNull(cacheKey, "cacheKey");
    return find(cacheKey, hash(cacheKey)) >= 0;
  }

  /** The String instance the index keeps for {@code cacheKey}, or {@code null} if it has none. */
  public String heldKey(String cacheKey) {
    int slot = find(cacheKey, hash(cacheKey));
    return slot < 0 ? null : keys.get(table.get(slot) - 1);
  }

  /**
   * Removes and returns, earliest first, up to {@code budget} entries due at or before {@code
   * nowMillis}. The budget bounds the work of one scheduler tick, e.g. after a long outage.
   */
  public List<Entry> pollDue(long nowMillis, int budget) {
    if (budget < 0) {
      throw new IllegalArgumentException("budget must be >= 0, was " + budget);
    }
    List<Entry> due = new ArrayList<>(Math.min(budget, Math.min(size, 1024)));
    while (due.size() < budget && size > 0 && dues.get(0) <= nowMillis) {
      due.add(entryAt(0));
      removeAt(0);
    }
    shrinkIfSparse();
    return due;
  }

  /** The earliest due time, or empty when the index is empty. */
  public OptionalLong nextDueMillis() {
    return size == 0 ? OptionalLong.empty() : OptionalLong.of(dues.get(0));
  }

  /** Removes every entry and releases the memory they took. */
  public void clear() {
    size = 0;
    allocate(MIN_CAPACITY);
  }

  private Entry entryAt(int k) {
    return new Entry(keys.get(k), versions.get(k), dues.get(k), tags.get(k));
  }

  // --- Heap ---------------------------------------------------------------------------------

  private void removeAt(int k) {
    deleteSlot(slots.get(k));
    int last = --size;
    if (k != last) {
      long movedDue = dues.get(last);
      move(last, k);
      if (k > 0 && movedDue < dues.get((k - 1) >>> 1)) {
        siftUp(k);
      } else {
        siftDown(k);
      }
    }
    keys.set(last, null);
  }

  private void siftUp(int k) {
    String key = keys.get(k);
    long due = dues.get(k);
    long version = versions.get(k);
    int hash = hashes.get(k);
    int slot = slots.get(k);
    int tag = tags.get(k);
    while (k > 0) {
      int parent = (k - 1) >>> 1;
      if (dues.get(parent) <= due) {
        break;
      }
      move(parent, k);
      k = parent;
    }
    place(k, key, due, version, hash, slot, tag);
  }

  private void siftDown(int k) {
    String key = keys.get(k);
    long due = dues.get(k);
    long version = versions.get(k);
    int hash = hashes.get(k);
    int slot = slots.get(k);
    int tag = tags.get(k);
    int half = size >>> 1;
    while (k < half) {
      int child = 2 * k + 1;
      long childDue = dues.get(child);
      int right = child + 1;
      if (right < size) {
        long rightDue = dues.get(right);
        if (rightDue < childDue) {
          child = right;
          childDue = rightDue;
        }
      }
      if (due <= childDue) {
        break;
      }
      move(child, k);
      k = child;
    }
    place(k, key, due, version, hash, slot, tag);
  }

  private void move(int from, int to) {
    place(
        to,
        keys.get(from),
        dues.get(from),
        versions.get(from),
        hashes.get(from),
        slots.get(from),
        tags.get(from));
  }

  private void place(int k, String key, long due, long version, int hash, int slot, int tag) {
    keys.set(k, key);
    tags.set(k, tag);
    dues.set(k, due);
    versions.set(k, version);
    hashes.set(k, hash);
    slots.set(k, slot);
    table.set(slot, k + 1);
  }

  // --- Hash table (linear probing) ----------------------------------------------------------

  private static int hash(String cacheKey) {
    // Murmur3's finalizer: linear probing needs well-spread low bits, String hashes lack them.
    int h = cacheKey.hashCode();
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }

  /** The table slot of {@code cacheKey}, or -1. */
  private int find(String cacheKey, int hash) {
    for (int i = hash & tableMask; ; i = (i + 1) & tableMask) {
      int entry = table.get(i);
      if (entry == 0) {
        return -1;
      }
      int k = entry - 1;
      if (hashes.get(k) == hash && keys.get(k).equals(cacheKey)) {
        return i;
      }
    }
  }

  private int freeSlot(int hash) {
    int i = hash & tableMask;
    while (table.get(i) != 0) {
      i = (i + 1) & tableMask;
    }
    return i;
  }

  /** Frees slot {@code i}, shifting back later entries of the probe run so lookups still work. */
  private void deleteSlot(int i) {
    table.set(i, 0);
    int j = i;
    while (true) {
      j = (j + 1) & tableMask;
      int entry = table.get(j);
      if (entry == 0) {
        return;
      }
      int k = entry - 1;
      int home = hashes.get(k) & tableMask;
      // The entry at j may fill the hole at i unless its home lies cyclically in (i, j].
      boolean homeBetween = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (!homeBetween) {
        table.set(i, entry);
        slots.set(k, i);
        table.set(j, 0);
        i = j;
      }
    }
  }

  // --- Memory -------------------------------------------------------------------------------

  private void allocate(int newCapacity) {
    capacity = newCapacity;
    keys = new PagedArrays.Refs<>(newCapacity);
    dues = new PagedArrays.Longs(newCapacity);
    versions = new PagedArrays.Longs(newCapacity);
    hashes = new PagedArrays.Ints(newCapacity);
    tags = new PagedArrays.Ints(newCapacity);
    slots = new PagedArrays.Ints(newCapacity);
    table = new PagedArrays.Ints(newCapacity * 2);
    tableMask = newCapacity * 2 - 1;
  }

  private void shrinkIfSparse() {
    // A quarter, not a half, so that alternating put/remove at the boundary cannot thrash.
    if (capacity > MIN_CAPACITY && size < capacity / 4) {
      resize(capacity / 2);
    }
  }

  /** Changes the heap's capacity (a power of two) and rebuilds the table for it. */
  private void resize(int newCapacity) {
    capacity = newCapacity;
    keys.resize(newCapacity);
    dues.resize(newCapacity);
    versions.resize(newCapacity);
    hashes.resize(newCapacity);
    tags.resize(newCapacity);
    slots.resize(newCapacity);
    table = new PagedArrays.Ints(newCapacity * 2);
    tableMask = newCapacity * 2 - 1;
    for (int k = 0; k < size; k++) {
      int slot = freeSlot(hashes.get(k));
      table.set(slot, k + 1);
      slots.set(k, slot);
    }
  }
}
