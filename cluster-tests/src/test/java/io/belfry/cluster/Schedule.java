package io.belfry.cluster;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Setting due reminders through the nodes, asking who fires them, and waiting for an instant. */
final class Schedule {

  private Schedule() {}

  /** {@code count} keys of one run: {@code run}-0, {@code run}-1, ... */
  static List<String> keys(String run, int count) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      keys.add(run + "-" + i);
    }
    return keys;
  }

  /** The most reminders one batch {@code POST} takes ({@code Reminders.MAX_BATCH}). */
  private static final int BATCH = 1_000;

  /**
   * One-shot reminders for {@code keys}, the i-th due at {@code first} + i × {@code spacingMillis},
   * set round-robin through nodes 1 to {@code nodes}: one batch {@code POST} per node, all nodes at
   * once, as clients that set many reminders would.
   */
  static void setDue(
      ClusterNodes cluster, List<String> keys, Instant first, long spacingMillis, int nodes)
      throws Exception {
    List<List<String>> batches = new ArrayList<>();
    List<Integer> batchNode = new ArrayList<>();
    for (int node = 1; node <= nodes; node++) {
      List<String> items = new ArrayList<>();
      for (int i = node - 1; i < keys.size(); i += nodes) {
        items.add(
            "{\"key\": \""
                + keys.get(i)
                + "\", \"fireAt\": \""
                + first.plusMillis(spacingMillis * i)
                + "\"}");
        if (items.size() == BATCH) {
          batches.add(items);
          batchNode.add(node);
          items = new ArrayList<>();
        }
      }
      if (!items.isEmpty()) {
        batches.add(items);
        batchNode.add(node);
      }
    }
    Parallel.forEach(batches.size(), i -> cluster.api(batchNode.get(i)).setAll(batches.get(i)));
  }

  /** The node that fires each of {@code keys} now, as node 1 sees it. */
  static Map<String, String> owners(ClusterNodes cluster, List<String> keys) throws Exception {
    Map<String, String> owners = new ConcurrentHashMap<>();
    Parallel.forEach(keys.size(), i -> owners.put(keys.get(i), cluster.api(1).owner(keys.get(i))));
    return owners;
  }

  static void sleepUntil(Instant when) throws InterruptedException {
    long millis = when.toEpochMilli() - System.currentTimeMillis();
    if (millis > 0) {
      Thread.sleep(millis);
    }
  }
}
