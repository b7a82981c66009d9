package io.belfry.reminders.store;

import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.model.ReminderSummary;
import io.belfry.reminders.placement.ChangeSink;
import io.belfry.reminders.placement.Ownership;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.jboss.logging.Logger;

/**
 * This node's replica in cache-key order, each key with its state and next due time, and counts
 * kept as it changes ({@link LiveCounts}). A page of the listing starts at its cursor and skips
 * what its state or due filter rules out without reading the entry; the cluster view counts without
 * a pass over the replica.
 *
 * <p>Kept up to date by the change feed: a write replaces the key's summary, a remove drops it. The
 * replica is read into it (a <em>pass</em>) by the first reader, not at start (the scheduler's own
 * recovery pass is start-up work enough), and again after a topology change (a join's state
 * transfer and a merge's conflict resolution may write entries without telling the feed): on the
 * background executor if the index has one (once the engine lets it: not while recovery arms the
 * reminders), else by the first reader, never on the notification thread. Readers arriving during
 * the first pass wait for it; during a later one they go on with the index as the feed keeps it.
 *
 * <p>A pass races the feed, and the feed wins: every summary carries the number of the pass that
 * was running or last ran when it was put, and a pass does not overwrite a summary its own number
 * marks, which the feed put since the pass began and so is at least as new as what the pass read. A
 * remove during a pass leaves a marker with that number instead of dropping the key, so that the
 * pass cannot put back what it read before the remove. After its read, the pass drops the markers,
 * and every key it did not see that the store no longer holds: entries removed without the feed
 * knowing. (A write applied just as the pass began may carry the previous number; the store still
 * holds it, so it stays.) So once a pass is over, the index holds exactly the replica's reminders,
 * and the counts follow every change of a summary.
 *
 * <p>Readers still read each key they return from the store, so a page shows the entry as stored
 * now; the summary only decides which keys are worth reading.
 *
 * <p>Memory: one skip-list node and one summary per reminder, and one string per namespace (about
 * 70 bytes per reminder). Keys are Strings held elsewhere where possible. Each read of the store
 * decodes a new String, so whichever of the index and the scheduler's hints reads a key second
 * takes the first one's: the feed hands both the same instance; a pass swaps each key it reads for
 * the one a hint keeps ({@link HeldKeys}: recovery read them first); a hint armed from a later read
 * of the store takes the index's ({@link #keptKey}: a joiner's standby fill). Without that a node
 * held every key twice (20.7 million Strings for ten million reminders, about 69 bytes each;
 * docs/performance/scale.md).
 */
public final class KeyIndex implements ChangeSink {

  /**
   * Where this node already keeps reminders' key Strings, so that a pass reuses those instances.
   */
  @FunctionalInterface
  public interface HeldKeys {
    /**
     * Replaces {@code keys[i]}, of segment {@code segments[i]} ({@code i < count}), by an equal
     * String kept elsewhere, where there is one.
     */
    void share(String[] keys, int[] segments, int count);

    /** Nothing kept elsewhere: the index keeps the keys it reads. */
    HeldKeys NONE = (keys, segments, count) -> {};
  }

  /** A pass asks {@link HeldKeys} about this many keys at a time: briefly, under another's lock. */
  static final int SHARE_CHUNK = 1_024;

  /**
   * A key's namespace, state and next due time as last written; {@link #state} null marks a remove.
   */
  public static final class Summary {
    private final String namespace;
    private final ReminderState state;
    private final long nextDueMillis;
    private final int pass;

    private Summary(String namespace, ReminderState state, long nextDueMillis, int pass) {
      this.namespace = namespace;
      this.state = state;
      this.nextDueMillis = nextDueMillis;
      this.pass = pass;
    }

    /**
     * The summary of a reminder's entry, marked with {@code pass}; null if the key or the value is
     * not a reminder's.
     */
    private static Summary of(String cacheKey, byte[] encoded, int pass) {
      try {
        ReminderSummary summary = ReminderSummary.of(encoded);
        return new Summary(
            ReminderId.namespaceOf(cacheKey), summary.state(), summary.nextDueMillis(), pass);
      } catch (RuntimeException e) {
        return null;
      }
    }

    /** The namespace (shared with the cache's ids), or {@code null} for a remove's marker. */
    String namespace() {
      return namespace;
    }

    /** The reminder's state, or {@code null} if it was removed during a pass. */
    public ReminderState state() {
      return state;
    }

    public long nextDueMillis() {
      return nextDueMillis;
    }
  }

  private static final Logger LOG = Logger.getLogger(KeyIndex.class);

  /** A pass reads the replica in this many steps of segments, at most; see {@link #readStep}. */
  static final int PASS_STEPS = 32;

  private final ReminderStore store;
  private final Ownership ownership;
  private final Executor background;
  private final BooleanSupplier mayReadInBackground;
  private final HeldKeys heldKeys;
  // a background read was asked for while not allowed: readDeferred() runs it
  private final AtomicBoolean deferred = new AtomicBoolean();
  private final OwnerContext context = new OwnerContext();
  // values compared by identity: a summary is replaced only if it is still the one read
  private final ConcurrentSkipListMap<String, Summary> entries = new ConcurrentSkipListMap<>();
  private final LiveCounts counts;
  private final AtomicBoolean stale = new AtomicBoolean(true);
  private final ReentrantLock passLock = new ReentrantLock();
  // written only under passLock: the number of the pass running or last run
  private volatile int pass;
  // whether a pass has read the whole replica: from then on the feed keeps the index complete
  private volatile boolean read;
  // set after pass is incremented and reset after the pass: a remove that sees it set also sees
  // the pass's number, and a reader that sees stale cleared during a pass sees it and waits
  private volatile boolean passing;

  /**
   * An index to subscribe to the change feed before its first read, so no write is missed; its
   * readers read the replica again after a topology change.
   */
  public KeyIndex(ReminderStore store, Ownership ownership) {
    this(store, ownership, null);
  }

  /**
   * An index that reads the replica again on {@code background} after each topology change, so that
   * no reader waits for that read ({@code null}: the first reader after the change does it).
   */
  public KeyIndex(ReminderStore store, Ownership ownership, Executor background) {
    this(store, ownership, background, () -> true);
  }

  /**
   * An index that reads the replica again on {@code background} after each topology change, but
   * only while {@code mayReadInBackground} says so; a read asked for meanwhile waits for {@link
   * #readDeferred} (or for its first reader).
   */
  public KeyIndex(
      ReminderStore store,
      Ownership ownership,
      Executor background,
      BooleanSupplier mayReadInBackground) {
    this(store, ownership, background, mayReadInBackground, HeldKeys.NONE);
  }

  /**
   * As above, a pass keeping the key Strings that {@code heldKeys} finds instead of the ones it
   * read.
   */
  public KeyIndex(
      ReminderStore store,
      Ownership ownership,
      Executor background,
      BooleanSupplier mayReadInBackground,
      HeldKeys heldKeys) {
    this.heldKeys = Objects.requireNonNull(heldKeys, "heldKeys");
    this.store = Objects.requireNonNull(store, "store");
    this.ownership = Objects.requireNonNull(ownership, "ownership");
    this.counts = new LiveCounts(ownership.segmentCount());
    this.background = background;
    this.mayReadInBackground = Objects.requireNonNull(mayReadInBackground, "mayReadInBackground");
  }

  /** All keys from {@code from} on ({@code null}: all keys), in order, with summaries; live. */
  public NavigableMap<String, Summary> from(String from, boolean inclusive) {
    ensureRead();
    return from == null ? entries : entries.tailMap(from, inclusive);
  }

  public int size() {
    return entries.size();
  }

  /**
   * Whether this node's replica surely holds nothing under {@code cacheKey}, as far as the index
   * knows: it has read the replica, is not reading it again, and has no entry for the key. A hint
   * for skipping a read before a write, never a verdict: a write on another node may not have
   * reached the index yet, so the caller still writes conditionally ({@code putIfAbsent}).
   */
  public boolean lacks(String cacheKey) {
    return read && !stale.get() && !passing && !entries.containsKey(cacheKey);
  }

  /**
   * Reads the replica on the background executor now rather than at the first reader, so that
   * {@link #lacks} can answer soon after a start; without a background executor, does nothing. Put
   * off while the index may not read in the background (see the constructor).
   */
  public void readInBackground() {
    if (background == null) {
      return;
    }
    if (!mayReadInBackground.getAsBoolean()) {
      deferred.set(true);
      if (mayReadInBackground.getAsBoolean()) {
        readDeferred(); // allowed meanwhile: its readDeferred() may have come before the set
      }
      return;
    }
    try {
      background.execute(this::readAgainQuietly);
    } catch (RejectedExecutionException e) {
      LOG.debugf("BELFRY-0205 Key index read not scheduled (stopping?): %s", e.toString());
    }
  }

  /** Runs the background read that {@link #readInBackground} put off, if it put one off. */
  public void readDeferred() {
    if (deferred.getAndSet(false)) {
      readInBackground();
    }
  }

  /** Live reminders (not tombstones) in each segment. */
  public long[] liveBySegment() {
    ensureRead();
    return counts.liveBySegment();
  }

  /** Live reminders (not tombstones) per namespace, of the namespaces that have any. */
  public Map<String, Long> liveByNamespace() {
    ensureRead();
    return counts.liveByNamespace();
  }

  /** Reminders in {@code state}, of {@code namespace} or ({@code null}) of all namespaces. */
  public long count(String namespace, ReminderState state) {
    ensureRead();
    return counts.count(namespace, Objects.requireNonNull(state, "state"));
  }

  /**
   * Reminders of {@code namespace} (or, {@code null}, of all) due in the hours that the range
   * {@code [fromMillis, toMillis)} touches ({@code null}: unbounded): zero means none is due in the
   * range.
   */
  public long countDueAround(String namespace, Long fromMillis, Long toMillis) {
    ensureRead();
    return counts.countDueAround(namespace, fromMillis, toMillis);
  }

  /**
   * The String the index keeps for {@code cacheKey} if it holds the key, else {@code cacheKey}: for
   * a reader of the store that keeps keys too (the scheduler's hints), so that both hold one copy.
   */
  public String keptKey(String cacheKey) {
    String kept = entries.ceilingKey(cacheKey);
    return cacheKey.equals(kept) ? kept : cacheKey;
  }

  @Override
  public void written(String cacheKey, byte[] encoded) {
    Summary summary = Summary.of(cacheKey, encoded, pass);
    if (summary == null) {
      removed(cacheKey); // not a reminder (any more): in no listing and no count
    } else {
      put(cacheKey, summary, false);
    }
  }

  @Override
  public void removed(String cacheKey) {
    if (passing) {
      put(cacheKey, new Summary(null, null, 0, pass), false);
    } else {
      drop(cacheKey, null);
    }
  }

  @Override
  public void topologyChanged() {
    stale.set(true);
    readInBackground();
  }

  private void readAgainQuietly() {
    try {
      ensureRead();
    } catch (RuntimeException e) {
      // stale again: the next reader or topology change reads it
      LOG.debugf("BELFRY-0206 Key index read failed, to be read again: %s", e.toString());
    }
  }

  /**
   * Reads the replica if the index has not read it yet, waiting for a read under way; after a
   * topology change, the first reader reads it again while the others go on with the index as the
   * feed keeps it.
   */
  private void ensureRead() {
    if (!stale.get() && !passing) {
      return;
    }
    if (read) {
      if (passLock.tryLock()) {
        try {
          if (stale.getAndSet(false)) {
            readReplica();
          }
        } finally {
          passLock.unlock();
        }
      }
      return;
    }
    passLock.lock();
    try {
      if (stale.getAndSet(false)) {
        readReplica();
      }
    } finally {
      passLock.unlock();
    }
  }

  private void readReplica() {
    int number = pass + 1;
    pass = number;
    passing = true;
    // WildFly unmarshals cache keys with the thread's context class loader: a read from a thread of
    // the server or of a cache notification would see only marshalled keys. Read as the owner.
    ClassLoader previousLoader = context.enter();
    try {
      int segmentCount = ownership.segmentCount();
      if (segmentCount <= 1) {
        readStep(null, number); // one step holds it all: a scan without a segment filter
      } else {
        int perStep = Math.max(1, (segmentCount + PASS_STEPS - 1) / PASS_STEPS);
        BitSet step = new BitSet(segmentCount);
        for (int first = 0; first < segmentCount; first += perStep) {
          step.clear();
          step.set(first, Math.min(segmentCount, first + perStep));
          readStep(step, number);
        }
      }
      entries.forEach(
          (cacheKey, summary) -> {
            if (summary.state == null || (summary.pass != number && !isStored(cacheKey))) {
              drop(cacheKey, summary);
            }
          });
      read = true;
    } catch (RuntimeException e) {
      stale.set(true); // read again by the next reader
      throw e;
    } finally {
      context.leave(previousLoader);
      passing = false;
    }
  }

  /**
   * Reads the entries of one step's segments into the index. They are put in key order, not in the
   * cache's hash order: each put then walks the skip list near where the previous one did, in the
   * CPU's caches (in hash order, 1,000,000 puts took 7-10 s on this box, nearly all of it waiting
   * for memory). Only one step's entries are held for that sort: a pass that held the whole
   * replica's (a key, a summary and an entry each) held about 1 GB more at 8.4 million reminders on
   * a WildFly node, after every topology change (docs/performance/scale.md).
   */
  private void readStep(BitSet segments, int number) { // segments null: all of them
    List<Seen> seen = new ArrayList<>();
    ReminderStore.SegmentEntryVisitor visitor =
        (segment, cacheKey, encoded) -> {
          Summary summary = Summary.of(cacheKey, encoded, number);
          if (summary != null) { // else not a reminder: in no listing and no count
            seen.add(new Seen(cacheKey, segment, summary));
          }
        };
    if (segments == null) { // one segment
      store.forEachLocal(null, (cacheKey, encoded) -> visitor.visit(0, cacheKey, encoded));
    } else {
      store.forEachLocalBySegment(segments, visitor);
    }
    shareHeldKeys(seen);
    seen.sort(Comparator.comparing(Seen::key));
    for (Seen entry : seen) {
      put(entry.key, entry.summary, true);
    }
  }

  /**
   * An entry a step read: its key (swapped for one held elsewhere, if any), segment and summary.
   */
  private static final class Seen {
    private String key;
    private final int segment;
    private final Summary summary;

    Seen(String key, int segment, Summary summary) {
      this.key = key;
      this.segment = segment;
      this.summary = summary;
    }

    String key() {
      return key;
    }
  }

  /**
   * Swaps the keys a step read for the instances held elsewhere, {@link #SHARE_CHUNK} at a time.
   */
  private void shareHeldKeys(List<Seen> seen) {
    if (heldKeys == HeldKeys.NONE) {
      return;
    }
    String[] keys = new String[SHARE_CHUNK];
    int[] segments = new int[SHARE_CHUNK];
    for (int from = 0; from < seen.size(); from += SHARE_CHUNK) {
      int count = Math.min(SHARE_CHUNK, seen.size() - from);
      for (int i = 0; i < count; i++) {
        keys[i] = seen.get(from + i).key;
        segments[i] = seen.get(from + i).segment;
      }
      heldKeys.share(keys, segments, count);
      for (int i = 0; i < count; i++) {
        seen.get(from + i).key = keys[i];
      }
    }
  }

  /**
   * Whether the store holds a reminder under {@code cacheKey}: asked of the keys a pass did not
   * see, which are gone unless the feed put them with the number it read just before the pass
   * began.
   */
  private boolean isStored(String cacheKey) {
    try {
      return store.get(ReminderId.fromCacheKey(cacheKey)).isPresent();
    } catch (StoreUnavailableException e) {
      throw e;
    } catch (RuntimeException e) {
      return false; // not a reminder
    }
  }

  /**
   * Puts {@code next} under {@code cacheKey} and counts the change; a pass's summary ({@code
   * fromPass}) yields to one the feed put during the pass.
   */
  private void put(String cacheKey, Summary next, boolean fromPass) {
    // compute: one search of the skip list for a key already indexed (a pass meets mostly those);
    // the function may run again if a write races it, and its last run is the one that counted
    Summary[] previous = new Summary[1];
    Summary kept =
        entries.compute(
            cacheKey,
            (key, current) -> {
              previous[0] = current;
              return fromPass && current != null && current.pass == next.pass ? current : next;
            });
    if (kept == next) {
      counted(cacheKey, previous[0], next);
    }
  }

  /**
   * Drops {@code cacheKey}: whatever it holds ({@code expected} null), or only {@code expected}.
   */
  private void drop(String cacheKey, Summary expected) {
    if (expected == null) {
      Summary previous = entries.remove(cacheKey);
      if (previous != null) {
        counted(cacheKey, previous, null);
      }
    } else if (entries.remove(cacheKey, expected)) {
      counted(cacheKey, expected, null);
    } // else changed since: the newer summary stays
  }

  private void counted(String cacheKey, Summary previous, Summary next) {
    counts.moved(ownership.segmentOf(cacheKey), previous, next);
  }
}
