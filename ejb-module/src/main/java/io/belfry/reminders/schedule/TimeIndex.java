package io.belfry.reminders.schedule;

import io.belfry.reminders.model.ReminderId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * The per-node index of owned reminders by due time: which reminder (and which version of it) to
 * look at next. Entries are hints: the firing path re-reads the store and checks the version, so
 * the index may hold stale versions without harm.
 *
 * <h2>Design</h2>
 *
 * <p>An <em>indexed</em> binary min-heap on due time (Sedgewick &amp; Wayne, <i>Algorithms</i>, 4th
 * ed., §2.4 "IndexMinPQ") whose elements are found by id through an open-addressing hash table with
 * linear probing and backward-shift deletion (Knuth, <i>TAOCP</i> vol. 3, §6.4, Algorithm R), so
 * that no deleted-slot markers accumulate. Both live in parallel primitive arrays: per entry the
 * heap stores the id reference, due time, version, the id's hash and the entry's table slot (28
 * bytes), and the table one {@code int} at a load factor of at most 1/2 (8 bytes): about 36 bytes
 * per entry plus the id, against roughly 100 for a {@code HashMap} of node objects. Every operation
 * is O(log n); {@link #nextDueMillis()} is O(1).
 *
 * <p>A hierarchical timing wheel (Varghese &amp; Lauck, "Hashed and Hierarchical Timing Wheels",
 * 1987; Caffeine's {@code TimerWheel}) gives O(1) insertion, but needs a linked node object per
 * timer plus a map from id to node, several times this memory at a million entries, and it only
 * buckets times coarsely; the heap pops exactly in due order, which the budgeted poll relies on.
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

  /** One hint: reminder {@code id} at {@code version} is due at {@code dueMillis}. */
  public record Entry(ReminderId id, long version, long dueMillis) {
    public Entry {
      Objects.requireNonNull(id, "id");
    }
  }

  private static final int MIN_CAPACITY = 16;

  // The heap, in parallel arrays indexed by heap position; valid in [0, size).
  private ReminderId[] ids;
  private long[] dues;
  private long[] versions;
  private int[] hashes;

  /** The table slot that points at each heap position, to update it when the element moves. */
  private int[] slots;

  /** Heap position + 1 of the entry whose id hashes here (after probing); 0 when free. */
  private int[] table;

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

  /** Adds the entry for {@code id}, replacing any entry it had, whatever that one's version. */
  public void put(ReminderId id, long version, long dueMillis) {
    Objects.requireNonNull(id, "id");
    int hash = hash(id);
    int slot = find(id, hash);
    if (slot >= 0) {
      int k = table[slot] - 1;
      long oldDue = dues[k];
      versions[k] = version;
      dues[k] = dueMillis;
      if (dueMillis < oldDue) {
        siftUp(k);
      } else if (dueMillis > oldDue) {
        siftDown(k);
      }
      return;
    }
    if (size == ids.length) {
      resize(ids.length * 2);
    }
    slot = freeSlot(hash);
    int k = size++;
    ids[k] = id;
    dues[k] = dueMillis;
    versions[k] = version;
    hashes[k] = hash;
    slots[k] = slot;
    table[slot] = k + 1;
    siftUp(k);
  }

  /** Removes the entry of {@code id}; returns whether there was one. */
  public boolean remove(ReminderId id) {
    Objects.requireNonNull(id, "id");
    int slot = find(id, hash(id));
    if (slot < 0) {
      return false;
    }
    removeAt(table[slot] - 1);
    shrinkIfSparse();
    return true;
  }

  /**
   * Removes the entry of {@code id} only if it is for {@code version}, so that a late removal for
   * an old version cannot drop the hint of a newer one.
   */
  public boolean remove(ReminderId id, long version) {
    Objects.requireNonNull(id, "id");
    int slot = find(id, hash(id));
    if (slot < 0 || versions[table[slot] - 1] != version) {
      return false;
    }
    removeAt(table[slot] - 1);
    shrinkIfSparse();
    return true;
  }

  /** The entry of {@code id}, if any. */
  public Optional<Entry> get(ReminderId id) {
    Objects.requireNonNull(id, "id");
    int slot = find(id, hash(id));
    if (slot < 0) {
      return Optional.empty();
    }
    int k = table[slot] - 1;
    return Optional.of(new Entry(ids[k], versions[k], dues[k]));
  }

  public boolean contains(ReminderId id) {
    Objects.requireNonNull(id, "id");
    return find(id, hash(id)) >= 0;
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
    while (due.size() < budget && size > 0 && dues[0] <= nowMillis) {
      due.add(new Entry(ids[0], versions[0], dues[0]));
      removeAt(0);
    }
    shrinkIfSparse();
    return due;
  }

  /** The earliest due time, or empty when the index is empty. */
  public OptionalLong nextDueMillis() {
    return size == 0 ? OptionalLong.empty() : OptionalLong.of(dues[0]);
  }

  /**
   * Removes every entry whose id matches, e.g. all reminders of segments this node lost; returns
   * how many. O(n), once per topology change rather than per entry.
   */
  public int removeIf(Predicate<? super ReminderId> filter) {
    Objects.requireNonNull(filter, "filter");
    int kept = 0;
    for (int k = 0; k < size; k++) {
      if (filter.test(ids[k])) {
        continue;
      }
      ids[kept] = ids[k];
      dues[kept] = dues[k];
      versions[kept] = versions[k];
      hashes[kept] = hashes[k];
      kept++;
    }
    int removed = size - kept;
    if (removed == 0) {
      return 0;
    }
    Arrays.fill(ids, kept, size, null);
    size = kept;
    // Floyd's bottom-up heap construction, O(n); the table is rebuilt afterwards, so the sift's
    // writes to stale table slots are harmless.
    for (int k = (size >>> 1) - 1; k >= 0; k--) {
      siftDown(k);
    }
    int capacity = ids.length;
    while (capacity > MIN_CAPACITY && size < capacity / 4) {
      capacity /= 2;
    }
    resize(capacity);
    return removed;
  }

  /** Removes every entry and releases the memory they took. */
  public void clear() {
    size = 0;
    allocate(MIN_CAPACITY);
  }

  // --- Heap ---------------------------------------------------------------------------------

  private void removeAt(int k) {
    deleteSlot(slots[k]);
    int last = --size;
    if (k != last) {
      long movedDue = dues[last];
      move(last, k);
      if (movedDue < dues[parentOrSelf(k)]) {
        siftUp(k);
      } else {
        siftDown(k);
      }
    }
    ids[last] = null;
  }

  private static int parentOrSelf(int k) {
    return k == 0 ? 0 : (k - 1) >>> 1;
  }

  private void siftUp(int k) {
    ReminderId id = ids[k];
    long due = dues[k];
    long version = versions[k];
    int hash = hashes[k];
    int slot = slots[k];
    while (k > 0) {
      int parent = (k - 1) >>> 1;
      if (dues[parent] <= due) {
        break;
      }
      move(parent, k);
      k = parent;
    }
    place(k, id, due, version, hash, slot);
  }

  private void siftDown(int k) {
    ReminderId id = ids[k];
    long due = dues[k];
    long version = versions[k];
    int hash = hashes[k];
    int slot = slots[k];
    int half = size >>> 1;
    while (k < half) {
      int child = 2 * k + 1;
      int right = child + 1;
      if (right < size && dues[right] < dues[child]) {
        child = right;
      }
      if (due <= dues[child]) {
        break;
      }
      move(child, k);
      k = child;
    }
    place(k, id, due, version, hash, slot);
  }

  private void move(int from, int to) {
    ids[to] = ids[from];
    dues[to] = dues[from];
    versions[to] = versions[from];
    hashes[to] = hashes[from];
    slots[to] = slots[from];
    table[slots[to]] = to + 1;
  }

  private void place(int k, ReminderId id, long due, long version, int hash, int slot) {
    ids[k] = id;
    dues[k] = due;
    versions[k] = version;
    hashes[k] = hash;
    slots[k] = slot;
    table[slot] = k + 1;
  }

  // --- Hash table (linear probing) ----------------------------------------------------------

  private static int hash(ReminderId id) {
    // Murmur3's finalizer: linear probing needs well-spread low bits, String hashes lack them.
    int h = id.hashCode();
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }

  /** The table slot of {@code id}, or -1. */
  private int find(ReminderId id, int hash) {
    int mask = table.length - 1;
    for (int i = hash & mask; ; i = (i + 1) & mask) {
      int entry = table[i];
      if (entry == 0) {
        return -1;
      }
      int k = entry - 1;
      if (hashes[k] == hash && ids[k].equals(id)) {
        return i;
      }
    }
  }

  private int freeSlot(int hash) {
    int mask = table.length - 1;
    int i = hash & mask;
    while (table[i] != 0) {
      i = (i + 1) & mask;
    }
    return i;
  }

  /** Frees slot {@code i}, shifting back later entries of the probe run so lookups still work. */
  private void deleteSlot(int i) {
    int mask = table.length - 1;
    table[i] = 0;
    int j = i;
    while (true) {
      j = (j + 1) & mask;
      int entry = table[j];
      if (entry == 0) {
        return;
      }
      int k = entry - 1;
      int home = hashes[k] & mask;
      // The entry at j may fill the hole at i unless its home lies cyclically in (i, j].
      boolean homeBetween = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (!homeBetween) {
        table[i] = entry;
        slots[k] = i;
        table[j] = 0;
        i = j;
      }
    }
  }

  // --- Memory -------------------------------------------------------------------------------

  private void allocate(int capacity) {
    ids = new ReminderId[capacity];
    dues = new long[capacity];
    versions = new long[capacity];
    hashes = new int[capacity];
    slots = new int[capacity];
    table = new int[capacity * 2];
  }

  private void shrinkIfSparse() {
    // A quarter, not a half, so that alternating put/remove at the boundary cannot thrash.
    if (ids.length > MIN_CAPACITY && size < ids.length / 4) {
      resize(ids.length / 2);
    }
  }

  /** Moves the heap into arrays of {@code capacity} and rebuilds the table for them. */
  private void resize(int capacity) {
    ids = Arrays.copyOf(ids, capacity);
    dues = Arrays.copyOf(dues, capacity);
    versions = Arrays.copyOf(versions, capacity);
    hashes = Arrays.copyOf(hashes, capacity);
    slots = Arrays.copyOf(slots, capacity);
    table = new int[capacity * 2];
    for (int k = 0; k < size; k++) {
      int slot = freeSlot(hashes[k]);
      table[slot] = k + 1;
      slots[k] = slot;
    }
  }
}
