package io.belfry.reminders.schedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A {@link TimeIndex} per cache segment, polled as one index in due order, so that a whole
 * segment's hints move in or out in O(log s) (s segments) whatever it holds.
 *
 * <p>Why: when a member dies or leaves, a survivor gains its segments and must start firing them at
 * once. With one index for every owned segment, handing a segment over cost a pass over every hint
 * the node held and an O(n) heap construction under the scheduler's lock, 0.6–1.0 s per step at a
 * million reminders on a 2-core box (docs/performance/cluster.md), during which nothing fired. Here
 * a lost segment's index is {@link #detach detached} and a gained one {@link #attachNewer attached}
 * as it is.
 *
 * <p>The segments' earliest due times are kept in an indexed binary min-heap over segment numbers
 * (as in {@link TimeIndex}, Sedgewick &amp; Wayne §2.4), so {@link #nextDueMillis()} is O(1) and a
 * poll costs O(log n) in its segment plus O(log s) to reorder the segments.
 *
 * <p>Every entry is tagged with its segment: an entry returned by {@link #pollDue} or {@link #get}
 * names it, and callers hand it back with each call so that the index never computes a key's
 * segment (on WildFly that marshals the key).
 *
 * <p>Not thread-safe, like {@link TimeIndex}.
 */
public final class SegmentedTimeIndex {

  private TimeIndex[] bySegment = new TimeIndex[0];

  /** Segment numbers, a min-heap on each one's earliest due time; valid in [0, heapSize). */
  private int[] heap = new int[0];

  /** Each segment's position in {@link #heap}, or -1 while it holds no entry. */
  private int[] position = new int[0];

  /** Each segment's earliest due time while it is in the heap. */
  private long[] headDue = new long[0];

  private int heapSize;
  private int size;

  /** The number of entries, over every segment. */
  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The earliest due time over every segment, or empty when the index is empty. */
  public OptionalLong nextDueMillis() {
    return heapSize == 0 ? OptionalLong.empty() : OptionalLong.of(headDue[heap[0]]);
  }

  /** The earliest due time in {@code segment}, or {@code Long.MAX_VALUE} when it holds none. */
  public long headDueMillis(int segment) {
    return segment >= 0 && segment < position.length && position[segment] >= 0
        ? headDue[segment]
        : Long.MAX_VALUE;
  }

  /** Adds or replaces the entry of {@code cacheKey} in {@code segment}, whatever its version. */
  public void put(String cacheKey, long version, long dueMillis, int segment) {
    checkSegment(segment);
    TimeIndex index = segmentIndex(segment);
    int before = index.size();
    index.put(cacheKey, version, dueMillis, segment);
    size += index.size() - before;
    reorder(segment);
  }

  /** The entry of {@code cacheKey} in {@code segment}, if any. */
  public Optional<TimeIndex.Entry> get(String cacheKey, int segment) {
    TimeIndex index = existing(segment);
    return index == null ? Optional.empty() : index.get(cacheKey);
  }

  public boolean contains(String cacheKey, int segment) {
    TimeIndex index = existing(segment);
    return index != null && index.contains(cacheKey);
  }

  /** The String instance {@code segment} keeps for {@code cacheKey}, or {@code null}. */
  public String heldKey(String cacheKey, int segment) {
    TimeIndex index = existing(segment);
    return index == null ? null : index.heldKey(cacheKey);
  }

  /**
   * Puts the entry unless {@code segment} holds {@code cacheKey} at the same or a newer version;
   * returns whether it did.
   */
  public boolean putIfNewer(String cacheKey, long version, long dueMillis, int segment) {
    checkSegment(segment);
    TimeIndex index = segmentIndex(segment);
    int before = index.size();
    boolean put = index.putIfNewer(cacheKey, version, dueMillis, segment);
    size += index.size() - before;
    reorder(segment);
    return put;
  }

  /** Removes the entry of {@code cacheKey} in {@code segment}; returns whether there was one. */
  public boolean remove(String cacheKey, int segment) {
    TimeIndex index = existing(segment);
    if (index == null || !index.remove(cacheKey)) {
      return false;
    }
    size--;
    reorder(segment);
    return true;
  }

  /**
   * Removes and returns, earliest first over every segment, up to {@code budget} entries due at or
   * before {@code nowMillis}, each tagged with its segment.
   */
  public List<TimeIndex.Entry> pollDue(long nowMillis, int budget) {
    if (budget < 0) {
      throw new IllegalArgumentException("budget must be >= 0, was " + budget);
    }
    List<TimeIndex.Entry> due = new ArrayList<>(Math.min(budget, Math.min(size, 1024)));
    while (due.size() < budget && heapSize > 0 && headDue[heap[0]] <= nowMillis) {
      int segment = heap[0];
      TimeIndex.Entry entry = bySegment[segment].pollDue(nowMillis, 1).get(0);
      due.add(
          entry.tag() == segment
              ? entry
              : new TimeIndex.Entry(entry.cacheKey(), entry.version(), entry.dueMillis(), segment));
      size--;
      reorder(segment);
    }
    return due;
  }

  /**
   * Removes {@code segment}'s entries and returns them as its own index (its entries tagged with
   * the segment, or untagged if they were attached so), or null when it held none. O(log s).
   */
  public TimeIndex detach(int segment) {
    TimeIndex index = existing(segment);
    if (index == null) {
      return null;
    }
    bySegment[segment] = null;
    size -= index.size();
    reorder(segment);
    return index.isEmpty() ? null : index;
  }

  /**
   * Adds the entries of {@code entries}, all of {@code segment}, unless this index holds their key
   * at the same or a newer version; takes ownership of {@code entries}. O(log s) when the segment
   * is empty here (the hand-over's case); otherwise the smaller of the two is merged into the
   * larger, O(m log n).
   */
  public void attachNewer(int segment, TimeIndex entries) {
    checkSegment(segment);
    if (entries == null || entries.isEmpty()) {
      return;
    }
    ensureCapacity(segment);
    TimeIndex held = bySegment[segment];
    int before = held == null ? 0 : held.size();
    TimeIndex merged;
    if (held == null || held.isEmpty()) {
      merged = entries;
    } else if (held.size() >= entries.size()) {
      for (TimeIndex.Entry entry : entries.entries()) {
        held.putIfNewer(entry.cacheKey(), entry.version(), entry.dueMillis(), segment);
      }
      merged = held;
    } else {
      // The larger one is kept; what this index held wins a tie, as above.
      for (TimeIndex.Entry mine : held.entries()) {
        Optional<TimeIndex.Entry> theirs = entries.get(mine.cacheKey());
        if (theirs.isEmpty() || theirs.get().version() <= mine.version()) {
          entries.put(mine.cacheKey(), mine.version(), mine.dueMillis(), segment);
        }
      }
      merged = entries;
    }
    bySegment[segment] = merged;
    size += merged.size() - before;
    reorder(segment);
  }

  /** Every entry of {@code segment}, in no particular order; for tests and diagnostics. */
  public List<TimeIndex.Entry> entries(int segment) {
    TimeIndex index = existing(segment);
    return index == null ? List.of() : index.entries();
  }

  /** Removes every entry and releases the memory they took. */
  public void clear() {
    bySegment = new TimeIndex[0];
    heap = new int[0];
    position = new int[0];
    headDue = new long[0];
    heapSize = 0;
    size = 0;
  }

  private static void checkSegment(int segment) {
    if (segment < 0) {
      throw new IllegalArgumentException("segment must be >= 0, was " + segment);
    }
  }

  private TimeIndex existing(int segment) {
    return segment >= 0 && segment < bySegment.length ? bySegment[segment] : null;
  }

  private TimeIndex segmentIndex(int segment) {
    ensureCapacity(segment);
    TimeIndex index = bySegment[segment];
    if (index == null) {
      index = new TimeIndex();
      bySegment[segment] = index;
    }
    return index;
  }

  private void ensureCapacity(int segment) {
    if (segment >= bySegment.length) {
      int length = Math.max(segment + 1, bySegment.length * 2);
      bySegment = Arrays.copyOf(bySegment, length);
      heap = Arrays.copyOf(heap, length);
      headDue = Arrays.copyOf(headDue, length);
      int old = position.length;
      position = Arrays.copyOf(position, length);
      Arrays.fill(position, old, length, -1);
    }
  }

  // --- The heap of segments -----------------------------------------------------------------

  /** Puts {@code segment} where its earliest due time now belongs, in or out of the heap. */
  private void reorder(int segment) {
    if (segment >= position.length) {
      return;
    }
    TimeIndex index = bySegment[segment];
    OptionalLong next = index == null ? OptionalLong.empty() : index.nextDueMillis();
    int k = position[segment];
    if (next.isEmpty()) {
      if (index != null) {
        bySegment[segment] = null; // an empty segment keeps no arrays
      }
      if (k >= 0) {
        removeFromHeap(k);
      }
      return;
    }
    long due = next.getAsLong();
    if (k < 0) {
      k = heapSize++;
      heap[k] = segment;
      position[segment] = k;
      headDue[segment] = due;
      siftUp(k);
      return;
    }
    long old = headDue[segment];
    headDue[segment] = due;
    if (due < old) {
      siftUp(k);
    } else if (due > old) {
      siftDown(k);
    }
  }

  private void removeFromHeap(int k) {
    int segment = heap[k];
    int last = --heapSize;
    position[segment] = -1;
    if (k == last) {
      return;
    }
    int moved = heap[last];
    heap[k] = moved;
    position[moved] = k;
    if (k > 0 && headDue[moved] < headDue[heap[(k - 1) >>> 1]]) {
      siftUp(k);
    } else {
      siftDown(k);
    }
  }

  private void siftUp(int k) {
    int segment = heap[k];
    long due = headDue[segment];
    while (k > 0) {
      int parent = (k - 1) >>> 1;
      if (headDue[heap[parent]] <= due) {
        break;
      }
      place(k, heap[parent]);
      k = parent;
    }
    place(k, segment);
  }

  private void siftDown(int k) {
    int segment = heap[k];
    long due = headDue[segment];
    int half = heapSize >>> 1;
    while (k < half) {
      int child = 2 * k + 1;
      int right = child + 1;
      if (right < heapSize && headDue[heap[right]] < headDue[heap[child]]) {
        child = right;
      }
      if (due <= headDue[heap[child]]) {
        break;
      }
      place(k, heap[child]);
      k = child;
    }
    place(k, segment);
  }

  private void place(int k, int segment) {
    heap[k] = segment;
    position[segment] = k;
  }
}
