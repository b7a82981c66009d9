package io.belfry.reminders.store;

import io.belfry.reminders.model.ReminderState;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of this node's replica kept as it changes ({@link KeyIndex} reports every entry's move
 * from one state and due time to another): reminders per namespace and state, per namespace and
 * hour of next due time, and live ones (not tombstones) per segment. Reading them costs the number
 * of namespaces and segments, never the number of reminders, so the cluster view, the dashboard and
 * the metrics refresh at the same cost at ten million reminders as at ten thousand.
 */
final class LiveCounts {

  private static final ReminderState[] STATES = ReminderState.values();
  private static final long HOUR_MILLIS = 3_600_000L;

  private final AtomicLongArray liveBySegment;
  private final ConcurrentHashMap<String, Namespace> byNamespace = new ConcurrentHashMap<>();

  /** One namespace's reminders per state, and per hour of their next due time. */
  private static final class Namespace {
    final LongAdder[] byState = new LongAdder[STATES.length];
    final ConcurrentSkipListMap<Long, LongAdder> byDueHour = new ConcurrentSkipListMap<>();

    Namespace() {
      for (int i = 0; i < byState.length; i++) {
        byState[i] = new LongAdder();
      }
    }

    void add(ReminderState state, long nextDueMillis, int delta) {
      byState[state.ordinal()].add(delta);
      byDueHour.computeIfAbsent(hourOf(nextDueMillis), h -> new LongAdder()).add(delta);
    }
  }

  LiveCounts(int segmentCount) {
    this.liveBySegment = new AtomicLongArray(segmentCount);
  }

  /**
   * Moves one reminder from {@code from} to {@code to} (each {@code null}: not counted, i.e. absent
   * or not a reminder), in state and next due time.
   */
  void moved(int segment, KeyIndex.Summary from, KeyIndex.Summary to) {
    if (!isCounted(from) && !isCounted(to)) {
      return;
    }
    // one key: both summaries carry its namespace
    String name = isCounted(from) ? from.namespace() : to.namespace();
    Namespace namespace = byNamespace.computeIfAbsent(name, ns -> new Namespace());
    if (isCounted(from)) {
      namespace.add(from.state(), from.nextDueMillis(), -1);
      if (!from.state().isTombstone()) {
        liveBySegment.decrementAndGet(segment);
      }
    }
    if (isCounted(to)) {
      namespace.add(to.state(), to.nextDueMillis(), 1);
      if (!to.state().isTombstone()) {
        liveBySegment.incrementAndGet(segment);
      }
    }
  }

  /** Whether {@code summary} is a reminder's (not absent, not a remove's marker). */
  private static boolean isCounted(KeyIndex.Summary summary) {
    return summary != null && summary.state() != null;
  }

  /** Live reminders (not tombstones) in each segment. */
  long[] liveBySegment() {
    long[] counts = new long[liveBySegment.length()];
    for (int segment = 0; segment < counts.length; segment++) {
      counts[segment] = liveBySegment.get(segment);
    }
    return counts;
  }

  /** Live reminders (not tombstones) per namespace, of the namespaces that have any, by name. */
  Map<String, Long> liveByNamespace() {
    Map<String, Long> live = new TreeMap<>();
    byNamespace.forEach(
        (name, namespace) -> {
          long count = 0;
          for (ReminderState state : STATES) {
            if (!state.isTombstone()) {
              count += namespace.byState[state.ordinal()].sum();
            }
          }
          if (count > 0) {
            live.put(name, count);
          }
        });
    return live;
  }

  /** Reminders in {@code state}, of {@code namespace} or ({@code null}) of all. */
  long count(String namespace, ReminderState state) {
    long count = 0;
    for (Namespace counted : namespaces(namespace)) {
      count += counted.byState[state.ordinal()].sum();
    }
    return count;
  }

  /**
   * Reminders of {@code namespace} (or, {@code null}, of all) whose next due time falls in an hour
   * that the range {@code [fromMillis, toMillis)} touches ({@code null}: unbounded): zero means
   * none is due in the range; more may include some due just outside it, in the same hours.
   */
  long countDueAround(String namespace, Long fromMillis, Long toMillis) {
    long count = 0;
    for (Namespace counted : namespaces(namespace)) {
      NavigableMap<Long, LongAdder> hours = counted.byDueHour;
      if (fromMillis != null) {
        hours = hours.tailMap(hourOf(fromMillis), true);
      }
      if (toMillis != null) {
        hours = hours.headMap(hourOf(toMillis), true);
      }
      for (LongAdder inHour : hours.values()) {
        count += inHour.sum();
      }
    }
    return count;
  }

  private Collection<Namespace> namespaces(String namespace) {
    if (namespace == null) {
      return byNamespace.values();
    }
    Namespace counted = byNamespace.get(namespace);
    return counted == null ? List.of() : List.of(counted);
  }

  private static long hourOf(long epochMillis) {
    return Math.floorDiv(epochMillis, HOUR_MILLIS);
  }
}
