package io.belfry.benchmarks;

import io.belfry.reminders.bench.BenchNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Belfry on N WildFly nodes as users run them (issue 18): a fresh cluster started with {@code
 * server-config/cluster clean} + {@code start N} (each node its own file store, encrypted JGroups,
 * {@code belfry.war} and its audit archive on PostgreSQL), the bench WAR ({@link WildFlyBench})
 * dropped into every node's deployments. The workloads run in node 1 through its injected {@code
 * Reminders} bean; every node's observer stamps the fires it delivers and the other nodes relay
 * them to node 1 ({@link FireRelay}), so a fire is counted wherever its segment's owner fired it.
 */
final class WildFlyCluster {

  private static final Logger LOG = Logger.getLogger(WildFlyCluster.class.getName());

  /** The audit database of the cluster, made afresh for each run beside the harness's schema. */
  static final String DATABASE = "belfry_bench";

  private WildFlyCluster() {}

  static void run(Options o, Results results, String group, int nodes) throws Exception {
    Path dir = o.work().resolve("wildfly-cluster").toAbsolutePath();
    String auditUrl = freshDatabase(o);
    Map<String, String> env =
        Map.of(
            "BELFRY_STORE_SYNC_WRITES",
            Boolean.toString(o.wildFlySyncWrites()),
            "BELFRY_CLUSTER_DIR",
            dir.toString(),
            "BELFRY_CLUSTER_OFFSET",
            Integer.toString(o.wildFlyPortOffset()),
            "BELFRY_NODE_HEAP",
            o.wildFlyHeap(),
            "BELFRY_CLUSTER_DB",
            "postgresql",
            "BELFRY_DB_URL",
            auditUrl,
            "BELFRY_ADMIN_USER",
            "bench-admin",
            "BELFRY_ADMIN_PASSWORD",
            HexFormat.of().formatHex(SecureRandom.getSeed(16)),
            // the backlog limiter opened up as for Belfry in-JVM (BenchNode.UNTHROTTLED)
            "BELFRY_NODE_OPTS",
            "-Dbelfry.backfill-rate="
                + BenchNode.UNTHROTTLED.backfillRatePerSecond()
                + " -Dbelfry.backlog-lateness="
                + BenchNode.UNTHROTTLED.backlogLateness());
    cluster(env, "clean");
    try {
      cluster(env, "start", Integer.toString(nodes));
      for (int i = 1; i <= nodes; i++) {
        Path deployments = dir.resolve("node" + i).resolve("deployments");
        WildFlyBench.writeWar(deployments.resolve(WildFlyBench.WAR));
      }
      for (int i = 1; i <= nodes; i++) {
        Path node = dir.resolve("node" + i);
        WildFlyBench.awaitDeployed(
            node.resolve("deployments"), () -> alive(node), node.resolve("log/server.log"));
      }
      HttpClient http = HttpClient.newHttpClient();
      String port = post(http, httpPort(o, 1), "collector");
      for (int i = 2; i <= nodes; i++) {
        post(http, httpPort(o, i), "forwarder?port=" + port);
      }
      // Three fresh WildFly servers on two cores spend their first minutes compiling (each C2
      // compiler thread busy for minutes, docs/performance/comparison.md): one whole pass of the
      // workloads first, its figures dropped, so that what is measured is a cluster as it runs,
      // not as it boots.
      Path node1 = dir.resolve("node1");
      WildFlyBench.drive(o, new Results(), group, httpPort(o, 1), () -> alive(node1));
      WildFlyBench.drive(o, results, group, httpPort(o, 1), () -> alive(node1));
      results.note(
          "%s, %d nodes: a fresh cluster from server-config/cluster (heap %s each, port offset %d,"
              + " encrypted JGroups, file stores %s, audit on PostgreSQL database %s); workloads run"
              + " in node 1 through its Reminders bean, so every set enters through node 1, after"
              + " one whole pass of them whose figures were dropped (warm-up); fires"
              + " stamped by the observer of the node that delivered them and relayed to node 1;"
              + " CPU and heap rows are node 1's.",
          Results.WILDFLY,
          nodes,
          o.wildFlyHeap(),
          o.wildFlyPortOffset(),
          o.wildFlySyncWrites()
              ? "forcing each write to disk (sync-writes)"
              : "writing without forcing to disk",
          DATABASE);
    } finally {
      cluster(env, "clean");
    }
  }

  /**
   * Whether the node whose base directory is {@code node} runs: its pid file names a live process.
   */
  private static boolean alive(Path node) {
    try {
      long pid = Long.parseLong(Files.readString(node.resolve("server.pid")).strip());
      return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    } catch (IOException | NumberFormatException e) {
      return false;
    }
  }

  private static int httpPort(Options o, int node) {
    return 8080 + o.wildFlyPortOffset() + 100 * (node - 1);
  }

  private static String post(HttpClient http, int port, String path)
      throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/bench/workloads/" + path))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() / 100 != 2) {
      throw new IllegalStateException(path + " on port " + port + ": " + r.statusCode());
    }
    return r.body().strip();
  }

  /** Drops and creates {@value #DATABASE} on the harness's PostgreSQL; its JDBC URL. */
  private static String freshDatabase(Options o) throws SQLException {
    try (Connection c = DriverManager.getConnection(o.jdbcUrl(), o.jdbcUser(), "");
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
      s.execute("CREATE DATABASE " + DATABASE);
    }
    // the same server and options (synchronous_commit, say) as the harness's URL, another database
    String url = o.jdbcUrl();
    int query = url.indexOf('?');
    String path = query < 0 ? url : url.substring(0, query);
    return path.substring(0, path.lastIndexOf('/') + 1)
        + DATABASE
        + (query < 0 ? "" : url.substring(query));
  }

  private static void cluster(Map<String, String> env, String... args) throws Exception {
    Path script = Path.of("server-config/cluster").toAbsolutePath();
    if (!Files.isExecutable(script)) {
      throw new IllegalStateException("run the harness from the checkout: no " + script);
    }
    String[] command = new String[args.length + 1];
    command[0] = script.toString();
    System.arraycopy(args, 0, command, 1, args.length);
    ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
    pb.environment().putAll(env);
    LOG.info("server-config/cluster " + String.join(" ", args));
    int exit = pb.start().waitFor();
    if (exit != 0) {
      throw new IllegalStateException(
          "server-config/cluster " + String.join(" ", args) + ": " + exit);
    }
  }
}
