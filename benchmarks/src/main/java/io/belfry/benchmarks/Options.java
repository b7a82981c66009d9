package io.belfry.benchmarks;

import io.belfry.reminders.bench.BenchNode.Storage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The harness's knobs, as {@code --name=value} arguments; each has a named default. Small values
 * make a smoke run (see {@code docs/performance/comparison.md}).
 */
record Options(
    List<String> systems,
    List<Integer> instances,
    List<Integer> rates,
    int maxRate,
    int windowSeconds,
    long leadMillis,
    long drainMillis,
    int clients,
    int calibrateSeconds,
    int burst,
    int churnSeconds,
    int pending,
    int pendingQuartz,
    int overdue,
    boolean audit,
    Storage belfryStore,
    int dbSchedulerThreads,
    Duration dbSchedulerPolling,
    int quartzThreads,
    String jdbcUrl,
    String jdbcUser,
    Path work,
    Path out,
    Path wildFlyHome,
    int wildFlyPortOffset,
    String wildFlyHeap,
    boolean wildFlySyncWrites,
    boolean publish,
    String command) {

  /**
   * "wildfly" is Belfry deployed in WildFly: one provisioned server in the 1-instance group ({@link
   * WildFlyBench}), a cluster from {@code server-config/cluster} in the others ({@link
   * WildFlyCluster}); not in (d). Not in the default list.
   */
  static final List<String> SYSTEMS = List.of("belfry", "db-scheduler", "quartz", "wildfly");

  static final String DEFAULT_SYSTEMS = "belfry,db-scheduler,quartz";
  static final String DEFAULT_WILDFLY_HOME = "server-config/target/server";
  static final int DEFAULT_WILDFLY_PORT_OFFSET = 500;
  static final String DEFAULT_WILDFLY_HEAP = "2g";
  static final String DEFAULT_RATES = "1000,2000,5000";
  static final int DEFAULT_MAX_RATE = 40_000;
  static final int DEFAULT_WINDOW_SECONDS = 6;
  static final long DEFAULT_LEAD_MILLIS = 2_000;
  static final long DEFAULT_DRAIN_MILLIS = 10_000;
  static final int DEFAULT_CLIENTS = 8;
  static final int DEFAULT_CALIBRATE_SECONDS = 3;
  static final int DEFAULT_BURST = 5_000;
  static final int DEFAULT_CHURN_SECONDS = 5;
  static final int DEFAULT_PENDING = 1_000_000;

  /**
   * Quartz loads its pending set at a few hundred jobs/s here (each job is three rows written under
   * one cluster-wide lock), so a million would take most of an hour: it gets fewer by default.
   */
  static final int DEFAULT_PENDING_QUARTZ = 20_000;

  static final int DEFAULT_OVERDUE = 1_000;
  static final int DEFAULT_DB_SCHEDULER_THREADS = 20;
  static final long DEFAULT_DB_SCHEDULER_POLLING_MILLIS = 50;
  static final int DEFAULT_QUARTZ_THREADS = 10;

  static Options parse(String... args) {
    Map<String, String> a = new HashMap<>();
    for (String arg : args) {
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("expected --name=value, got " + arg);
      }
      int eq = arg.indexOf('=');
      a.put(
          eq < 0 ? arg.substring(2) : arg.substring(2, eq),
          eq < 0 ? "true" : arg.substring(eq + 1));
    }
    int pending = Integer.parseInt(a.getOrDefault("pending", Integer.toString(DEFAULT_PENDING)));
    int pendingQuartz =
        Integer.parseInt(
            a.getOrDefault(
                "pending-quartz", Integer.toString(Math.min(pending, DEFAULT_PENDING_QUARTZ))));
    Options o =
        new Options(
            List.of(a.getOrDefault("systems", DEFAULT_SYSTEMS).split(",")),
            ints(a.getOrDefault("instances", "1,3")),
            ints(a.getOrDefault("rates", DEFAULT_RATES)),
            Integer.parseInt(a.getOrDefault("max-rate", Integer.toString(DEFAULT_MAX_RATE))),
            Integer.parseInt(a.getOrDefault("window", Integer.toString(DEFAULT_WINDOW_SECONDS))),
            Long.parseLong(a.getOrDefault("lead-ms", Long.toString(DEFAULT_LEAD_MILLIS))),
            Long.parseLong(a.getOrDefault("drain-ms", Long.toString(DEFAULT_DRAIN_MILLIS))),
            Integer.parseInt(a.getOrDefault("clients", Integer.toString(DEFAULT_CLIENTS))),
            Integer.parseInt(
                a.getOrDefault("calibrate", Integer.toString(DEFAULT_CALIBRATE_SECONDS))),
            Integer.parseInt(a.getOrDefault("burst", Integer.toString(DEFAULT_BURST))),
            Integer.parseInt(a.getOrDefault("churn", Integer.toString(DEFAULT_CHURN_SECONDS))),
            pending,
            pendingQuartz,
            Integer.parseInt(a.getOrDefault("overdue", Integer.toString(DEFAULT_OVERDUE))),
            Boolean.parseBoolean(a.getOrDefault("audit", "true")),
            // "memory": Belfry without its file store, to tell the store's cost from replication's
            a.getOrDefault("belfry-store", "file").equals("memory")
                ? Storage.MEMORY
                : Storage.FILE_STORE,
            Integer.parseInt(
                a.getOrDefault(
                    "db-scheduler-threads", Integer.toString(DEFAULT_DB_SCHEDULER_THREADS))),
            Duration.ofMillis(
                Long.parseLong(
                    a.getOrDefault(
                        "db-scheduler-polling-ms",
                        Long.toString(DEFAULT_DB_SCHEDULER_POLLING_MILLIS)))),
            Integer.parseInt(
                a.getOrDefault("quartz-threads", Integer.toString(DEFAULT_QUARTZ_THREADS))),
            a.getOrDefault("jdbc-url", "jdbc:postgresql://127.0.0.1:5432/test"),
            a.getOrDefault("jdbc-user", "postgres"),
            Path.of(a.getOrDefault("work", "benchmarks/target/compare/work")),
            Path.of(a.getOrDefault("out", "benchmarks/target/compare")),
            Path.of(a.getOrDefault("wildfly-home", DEFAULT_WILDFLY_HOME)),
            Integer.parseInt(
                a.getOrDefault(
                    "wildfly-port-offset", Integer.toString(DEFAULT_WILDFLY_PORT_OFFSET))),
            a.getOrDefault("wildfly-heap", DEFAULT_WILDFLY_HEAP),
            // the cluster's file stores force each write to disk (BELFRY_STORE_SYNC_WRITES): the
            // durability that matches PostgreSQL's default synchronous_commit=on
            Boolean.parseBoolean(a.getOrDefault("wildfly-sync-writes", "false")),
            Boolean.parseBoolean(a.getOrDefault("publish", "false")),
            "benchmarks/compare" + (args.length == 0 ? "" : " " + String.join(" ", args)));
    for (String s : o.systems) {
      if (!SYSTEMS.contains(s)) {
        throw new IllegalArgumentException("unknown system " + s + "; known: " + SYSTEMS);
      }
    }
    return o;
  }

  private static List<Integer> ints(String csv) {
    return Arrays.stream(csv.split(",")).map(String::strip).map(Integer::valueOf).toList();
  }
}
