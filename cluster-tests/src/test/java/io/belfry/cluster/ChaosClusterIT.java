package io.belfry.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.cluster.Api.AuditRecord;
import io.belfry.cluster.Api.Stored;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A bounded chaos run on three real nodes: four clients, each paced to {@code -Dbelfry.chaos.rate}
 * operations a second (default 6), set, replace and cancel reminders due a few seconds ahead
 * through the REST API of whichever nodes are up, for 80 s and until 5 s after the second victim is
 * back, while one node after another is killed with {@code kill -9} about every 20 s (or as soon as
 * the previous one is back) and started again: two kills at least, both under the load. Afterwards
 * a checker compares the clients' log of acknowledged operations with the audit table (and, where
 * the audit lacks a row, with the stored tombstones) and reports: acknowledged reminders that never
 * fired (must be 0), occurrences fired twice in steady state (must be 0) and during churn
 * (reported), and fires of a version after its replace or cancel was acknowledged (must be 0). Only
 * loopback is used. The load lasts at least {@code -Dbelfry.chaos.seconds} (default 80; longer runs
 * found the failures of 2026-11-26 more often). The second test restarts a node under writes and
 * compares the replicas key by key.
 */
@Tag("chaos")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChaosClusterIT {

  /**
   * How long the clients load the cluster at least; they go on until {@link #KILLS} victims are
   * back. A node restarted under the then unpaced load took 90-99 s to boot on the 2-core box
   * (2026-11-28), so a load of fixed length ended before the second victim was back, and the second
   * kill came after the clients had stopped; paced ({@link #OPS_PER_CLIENT_PER_SECOND}), 33-56 s.
   */
  private static final Duration LOAD = Duration.ofSeconds(Long.getLong("belfry.chaos.seconds", 80));

  /** How many kills come while the clients load the cluster. */
  private static final int KILLS = 2;

  /**
   * How long the rejoin test lets the replicas converge after its writers stop: the rebalance ends
   * and JoinWrites settles the keys written meanwhile (0.4-5.2 s measured) on a box that is still
   * catching up with the writes.
   */
  private static final Duration SETTLING_ALLOWANCE = Duration.ofSeconds(30);

  private static final int CLIENTS = 4;

  /**
   * Operations each client sends per second at most. Unpaced, the four clients kept this 2-core box
   * (three WildFly nodes, PostgreSQL and this JVM) busy at about 53 operations a second, and a
   * victim then took 180 s or more to boot, past the cluster script's wait, in the code of both
   * 2026-11-28 and 2026-11-29 (CI and by hand, 2026-11-29): the test measured CPU starvation, not
   * Belfry. Paced, the box keeps room for the victim's boot, as a cluster of one node per machine
   * has; the race windows are the same, only fewer operations fall in each.
   */
  private static final int OPS_PER_CLIENT_PER_SECOND = Integer.getInteger("belfry.chaos.rate", 6);

  /**
   * One operation as the client saw it: {@code acknowledged} false when the request failed; {@code
   * replacedLive} true for a PUT answered 200 (it replaced a live version) or a DELETE that
   * cancelled one.
   */
  record Op(
      String kind,
      String key,
      long version,
      Instant sent,
      Instant answered,
      boolean acknowledged,
      boolean replacedLive) {}

  /** From the kill of a node to its return. */
  record Churn(int node, Instant killed, Instant back) {
    boolean covers(Instant at) {
      return !at.isBefore(killed.minusSeconds(2)) && !at.isAfter(back.plusSeconds(5));
    }
  }

  /** AtLeastOnceClusterIT's cluster, which that suite leaves running (ClusterNodes). */
  private final ClusterNodes cluster = ClusterNodes.onPostgresql(3, AtLeastOnceClusterIT.DATABASE);

  @BeforeAll
  void startCluster() {
    cluster.startCleanOrTakeOver();
  }

  @AfterAll
  void stopCluster() {
    cluster.close();
  }

  @Test
  void killEveryTwentySeconds_underSetsReplacesAndCancels_checkerFindsNoLossNoStaleFire()
      throws Exception {
    Instant start = Instant.now();
    String run = "chaos-" + start.toEpochMilli();
    Instant loadEnds = start.plus(LOAD);
    AtomicIntegerArray up = new AtomicIntegerArray(new int[] {1, 1, 1});
    AtomicBoolean loading = new AtomicBoolean(true);
    ConcurrentLinkedQueue<Op> log = new ConcurrentLinkedQueue<>();
    List<Churn> churn = Collections.synchronizedList(new ArrayList<>());
    AtomicReference<RuntimeException> killerFailure = new AtomicReference<>();

    Thread killer =
        new Thread(
            () -> {
              try {
                Instant nextKill = start.plusSeconds(15);
                // a kill about every 20 s, each once the previous victim is back: two nodes down
                // at once would leave a minority, which by design stops (DENY_READ_WRITES)
                while (churn.size() < KILLS || nextKill.isBefore(loadEnds.minusSeconds(15))) {
                  Thread.sleep(Math.max(0, Duration.between(Instant.now(), nextKill).toMillis()));
                  int victim = 1 + ThreadLocalRandom.current().nextInt(3);
                  up.set(victim - 1, 0);
                  Instant killed = Instant.now();
                  cluster.kill(victim);
                  cluster.start(victim);
                  churn.add(new Churn(victim, killed, Instant.now()));
                  up.set(victim - 1, 1);
                  nextKill = killed.plusSeconds(20);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (RuntimeException e) {
                killerFailure.set(e); // a victim that did not come back
              }
            },
            "chaos-killer");
    List<Thread> clients = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      String prefix = run + "-c" + c + "-";
      clients.add(new Thread(() -> client(prefix, loading, up, log), "chaos-client-" + c));
    }
    killer.start();
    clients.forEach(Thread::start);
    killer.join();
    // writes after the last victim is back, too
    Instant lastBack = churn.isEmpty() ? start : churn.get(churn.size() - 1).back();
    Instant stop = lastBack.plusSeconds(5).isAfter(loadEnds) ? lastBack.plusSeconds(5) : loadEnds;
    Thread.sleep(Math.max(0, Duration.between(Instant.now(), stop).toMillis()));
    loading.set(false);
    for (Thread client : clients) {
      client.join();
    }
    Instant loadEnded = Instant.now();
    cluster.startAll();

    // every acknowledged reminder is due at most 25 s after the load ends; the last victim may
    // have come back later than that, with overdue reminders to fire
    Instant settled = loadEnded.plusSeconds(45);
    if (settled.isBefore(Instant.now().plusSeconds(20))) {
      settled = Instant.now().plusSeconds(20);
    }
    Thread.sleep(Duration.between(Instant.now(), settled).toMillis());
    Report report = check(run, start, new ArrayList<>(log), new ArrayList<>(churn));
    Fires.report(report.table());
    assertThat(report.neverFired).as("acknowledged, not cancelled, never fired").isEmpty();
    assertThat(report.steadyDuplicates).as("occurrences fired twice in steady state").isEmpty();
    assertThat(report.steadyStaleFires)
        .as("fires of a version after its replace or cancel, in steady state")
        .isEmpty();
    assertThat(report.fired).as("the run did fire").isGreaterThan(100);
    assertThat(killerFailure.get()).as("a victim's restart").isNull();
    assertThat(churn).as("nodes were killed").hasSizeGreaterThanOrEqualTo(2);
  }

  /**
   * A node killed and started again while clients keep replacing reminders through the others must
   * end up with the same replica as they do: every write acknowledged while it received its state,
   * and after, reaches it. The replicas are compared key by key once its state transfer has ended
   * (each node answers a GET from its own replica then), and again every second, for up to {@link
   * #SETTLING_ALLOWANCE}, while a difference remains: JoinWrites settles the keys written during
   * the rebalance only after it has ended. A replica that missed a write for good fires from an old
   * version, or never fires the new one, once the restarted node owns the key.
   */
  @Test
  void nodeRestartedUnderWrites_endsWithTheSameReplicaAsTheOthers() throws Exception {
    String run = "rejoin-" + Instant.now().toEpochMilli() + "-";
    int keys = 400;
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicInteger acknowledged = new AtomicInteger();
    List<Thread> writers = new ArrayList<>();
    for (int node = 1; node <= 2; node++) {
      Api api = cluster.api(node);
      writers.add(
          new Thread(
              () -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (writing.get()) {
                  String body = "{\"fireAt\": \"" + Instant.now().plusSeconds(3_600) + "\"}";
                  try {
                    api.put(run + random.nextInt(keys), body);
                    acknowledged.incrementAndGet();
                  } catch (IOException e) {
                    // a write refused while the topology changes: the comparison covers it
                  }
                }
              },
              "rejoin-writer-" + node));
    }
    writers.forEach(Thread::start);
    Thread.sleep(3_000);
    Instant killed = Instant.now();
    cluster.kill(3);
    cluster.start(3);
    Instant started = Instant.now();
    Api restarted = cluster.api(3);
    Await.until("node3 received its state", restarted::stateReceived);
    Instant received = Instant.now();
    Thread.sleep(5_000); // writes after the transfer, too
    writing.set(false);
    for (Thread writer : writers) {
      writer.join();
    }

    // JoinWrites settles the keys written while the cache rebalanced once the rebalance has ended,
    // which on a loaded box can be after the writers stop: compare until the replicas agree or
    // the settling has had ample time
    Instant stopped = Instant.now();
    Instant deadline = stopped.plus(SETTLING_ALLOWANCE);
    List<String> differing = differingReplicas(run, keys, restarted);
    int firstPass = differing.size();
    int passes = 1;
    while (!differing.isEmpty() && Instant.now().isBefore(deadline)) {
      Thread.sleep(1_000);
      differing = differingReplicas(run, keys, restarted);
      passes++;
    }
    System.out.printf(
        "Rejoin: %d writes acknowledged; %d keys differed in the first comparison, %d after %d"
            + " passes, %d ms after the writers stopped%n",
        acknowledged.get(),
        firstPass,
        differing.size(),
        passes,
        Duration.between(stopped, Instant.now()).toMillis());
    // where a missed write falls against the join, to read beside the nodes' rebalance log lines
    System.out.printf(
        "Rejoin timeline: killed %s, start command returned %s, state received %s, writers"
            + " stopped %s%n",
        killed, started, received, stopped);
    assertThat(acknowledged.get()).as("writes acknowledged during the run").isGreaterThan(keys);
    assertThat(differing).as("keys whose replicas differ after node3's restart").isEmpty();
  }

  /** The keys of {@code run} whose stored version differs between the three nodes' replicas. */
  private List<String> differingReplicas(String run, int keys, Api restarted) throws IOException {
    List<String> differing = new ArrayList<>();
    for (int k = 0; k < keys; k++) {
      String key = run + k;
      long first = cluster.api(1).version(key);
      long second = cluster.api(2).version(key);
      long third = restarted.version(key);
      if (first != second || first != third) {
        differing.add(
            key
                + ": node1 "
                + minted(first)
                + ", node2 "
                + minted(second)
                + ", node3 "
                + minted(third));
      }
    }
    return differing;
  }

  /** A version with the instant it was minted (its wall-clock part), or "none". */
  private static String minted(long version) {
    return version < 0
        ? "none"
        : version
            + " ("
            + Instant.ofEpochMilli(version >>> 16)
            + ")"; // HybridLogicalClock.millisOf
  }

  /** One client: its own keys, one request at a time, to a random node that is up. */
  private void client(
      String prefix, AtomicBoolean loading, AtomicIntegerArray up, ConcurrentLinkedQueue<Op> log) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    List<String> mine = new ArrayList<>();
    int next = 0;
    long interval = TimeUnit.SECONDS.toNanos(1) / OPS_PER_CLIENT_PER_SECOND;
    long slot = System.nanoTime();
    while (loading.get()) {
      slot += interval;
      long wait = slot - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      } else {
        slot = System.nanoTime(); // behind (a slow answer): no burst to catch up
      }
      int node = 1 + random.nextInt(3);
      if (up.get(node - 1) == 0) {
        continue;
      }
      Api api = cluster.api(node);
      int dice = random.nextInt(10);
      Instant sent = Instant.now();
      if (mine.isEmpty() || dice < 5) {
        String key = prefix + (next++);
        mine.add(key);
        log.add(set(api, key, sent, "SET"));
      } else if (dice < 8) {
        log.add(set(api, mine.get(random.nextInt(mine.size())), sent, "REPLACE"));
      } else {
        String key = mine.get(random.nextInt(mine.size()));
        try {
          boolean cancelled = api.cancel(key);
          log.add(
              new Op(
                  cancelled ? "CANCEL" : "CANCEL_NONE",
                  key,
                  -1,
                  sent,
                  Instant.now(),
                  true,
                  cancelled));
        } catch (IOException e) {
          log.add(new Op("CANCEL", key, -1, sent, Instant.now(), false, false));
        }
      }
    }
  }

  private static Op set(Api api, String key, Instant sent, String kind) {
    Instant due = sent.plusMillis(ThreadLocalRandom.current().nextLong(3_000, 25_000));
    try {
      Api.SetAnswer answer = api.put(key, "{\"fireAt\": \"" + due + "\"}");
      return new Op(kind, key, answer.version(), sent, Instant.now(), true, !answer.created());
    } catch (IOException e) {
      return new Op(kind, key, -1, sent, Instant.now(), false, false);
    }
  }

  static final class Report {
    int operations;
    int acknowledged;
    int unanswered;
    int keys;
    int fired;
    int kills;
    int auditRowsMissing;
    int uncertainKeys;
    final List<String> neverFired = new ArrayList<>();
    final List<String> steadyDuplicates = new ArrayList<>();
    final List<String> churnDuplicates = new ArrayList<>();
    final List<String> steadyStaleFires = new ArrayList<>();

    /**
     * A fire and a replace or cancel of the same version both committed, one of them while a node
     * was being killed or restarted: two conditional writes that Infinispan decided on two primary
     * owners while the topology changed (guarantees.md, "Under churn").
     */
    final List<String> churnStaleFires = new ArrayList<>();

    /** FIRED rows per node: how the firing spreads over the members (nodes were killed). */
    final Map<String, Long> firesPerNode = new TreeMap<>();

    String table() {
      return String.format(
              Locale.ROOT,
              "%n## Chaos run (%d kills)%n%n"
                  + "| operations | acknowledged | failed (uncertain) | keys | keys left uncertain"
                  + " | FIRED rows | fired, audit row lost | never fired | steady duplicates"
                  + " | churn duplicates | stale fires, steady | stale fires, churn |%n"
                  + "|---|---|---|---|---|---|---|---|---|---|---|---|%n"
                  + "| %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |%n",
              kills,
              operations,
              acknowledged,
              unanswered,
              keys,
              uncertainKeys,
              fired,
              auditRowsMissing,
              neverFired.size(),
              steadyDuplicates.size(),
              churnDuplicates.size(),
              steadyStaleFires.size(),
              churnStaleFires.size())
          + String.format(Locale.ROOT, "%nFires per node: %s%n", firesPerNode)
          + (churnStaleFires.isEmpty() && steadyStaleFires.isEmpty()
              ? ""
              : String.format(
                  Locale.ROOT,
                  "%nStale fires: steady %s, churn %s%n",
                  steadyStaleFires,
                  churnStaleFires));
    }
  }

  private Report check(String run, Instant since, List<Op> log, List<Churn> churn)
      throws IOException {
    Report report = new Report();
    report.operations = log.size();
    report.acknowledged = (int) log.stream().filter(Op::acknowledged).count();
    report.unanswered = report.operations - report.acknowledged;
    report.kills = churn.size();
    List<AuditRecord> fires =
        cluster.api(1).audit("FIRED", since).stream().filter(r -> r.key().startsWith(run)).toList();
    report.fired = fires.size();
    fires.forEach(f -> report.firesPerNode.merge(f.node(), 1L, Long::sum));
    Map<String, List<AuditRecord>> firesByKey =
        fires.stream().collect(Collectors.groupingBy(AuditRecord::key));
    Map<String, Stored> stored = cluster.api(1).stored(run);
    Map<String, List<Op>> opsByKey = new HashMap<>();
    for (Op op : log) {
      opsByKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
    }
    report.keys = opsByKey.size();

    // the same occurrence fired more than once
    fires.stream()
        .collect(Collectors.groupingBy(r -> r.key() + "@" + r.version() + "#" + r.occurrence()))
        .forEach(
            (occurrence, rows) -> {
              if (rows.size() > 1) {
                boolean inChurn =
                    rows.stream().anyMatch(r -> churn.stream().anyMatch(c -> c.covers(r.at())));
                (inChurn ? report.churnDuplicates : report.steadyDuplicates).add(occurrence);
              }
            });

    for (Map.Entry<String, List<Op>> entry : opsByKey.entrySet()) {
      String key = entry.getKey();
      List<Op> ops = entry.getValue();
      ops.sort(Comparator.comparing(Op::sent));
      List<AuditRecord> keyFires = firesByKey.getOrDefault(key, List.of());

      // A version that fired although the next operation found it live and replaced or cancelled
      // it. Timestamps are not compared: the answer itself says whether the version was still
      // live (200 and a cancel) or had already fired (201, or a cancel that found nothing). A
      // failed request in between makes it unknown which version the next one met.
      for (int i = 0; i < ops.size(); i++) {
        Op op = ops.get(i);
        if (!op.acknowledged() || op.version() < 0) {
          continue;
        }
        Op next = i + 1 < ops.size() ? ops.get(i + 1) : null;
        if (next != null && next.acknowledged() && next.replacedLive()) {
          for (AuditRecord fire : keyFires) {
            if (fire.version() == op.version()) {
              boolean inChurn =
                  churn.stream().anyMatch(c -> c.covers(fire.at()) || c.covers(next.sent()));
              (inChurn ? report.churnStaleFires : report.steadyStaleFires)
                  .add(
                      key
                          + "@"
                          + op.version()
                          + " (fired on "
                          + fire.node()
                          + " at "
                          + fire.at()
                          + "; "
                          + next.kind()
                          + " sent "
                          + next.sent()
                          + ", answered "
                          + next.answered()
                          + ")");
            }
          }
        }
      }

      // the last acknowledged operation decides what must have happened, unless a failed request
      // (which may or may not have been applied) came after it
      Op lastAcknowledged = null;
      boolean uncertain = false;
      for (Op op : ops) {
        if (op.acknowledged() && !op.kind().equals("CANCEL_NONE")) {
          lastAcknowledged = op;
          uncertain = false;
        } else if (!op.acknowledged()) {
          uncertain = true;
        }
      }
      if (uncertain) {
        report.uncertainKeys++;
        continue;
      }
      if (lastAcknowledged == null || lastAcknowledged.version() < 0) {
        continue; // cancelled last: nothing must fire after it (checked above)
      }
      long version = lastAcknowledged.version();
      if (keyFires.stream().anyMatch(f -> f.version() == version)) {
        continue;
      }
      Stored now = stored.get(key);
      if (now != null && now.version() == version && now.state().equals("FIRED")) {
        report
            .auditRowsMissing++; // fired (its tombstone says so) on a node killed before its audit
        // row was written
      } else {
        report.neverFired.add(
            key
                + "@"
                + version
                + " ("
                + (now == null ? "absent" : now.state() + " at version " + now.version())
                + "; live version per replica: "
                + liveVersionPerReplica(key)
                + ")");
      }
    }
    return report;
  }

  /**
   * The live version each node's replica holds for {@code key} (-1: none, a tombstone or nothing),
   * so that a failure shows which replicas lost an acknowledged write: a replicated cache reads its
   * local replica.
   */
  private String liveVersionPerReplica(String key) {
    List<String> replicas = new ArrayList<>();
    for (int node = 1; node <= cluster.size(); node++) {
      String held;
      try {
        held = String.valueOf(cluster.api(node).version(key));
      } catch (IOException e) {
        held = "unreadable";
      }
      replicas.add(cluster.name(node) + " " + held);
    }
    return String.join(", ", replicas);
  }
}
