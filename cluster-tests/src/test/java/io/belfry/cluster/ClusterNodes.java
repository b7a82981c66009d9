package io.belfry.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The cluster under test: real WildFly processes started, stopped and killed through the same
 * {@code server-config/cluster} script an operator uses. Where the nodes live, their ports and the
 * first admin come from failsafe's environment (see this module's pom). The audit database is H2 in
 * the cluster's directory, or a PostgreSQL database of its own ({@link #onPostgresql}).
 *
 * <p>A clean start of three nodes costs CI about 85 s on this box, so suites run in the order of
 * their names (this module's pom) and some go on with the cluster the suite before them left
 * running ({@link #leaveRunning}, {@link #startCleanOrTakeOver}): AtLeastOnceClusterIT then
 * ChaosClusterIT on PostgreSQL; FailoverClusterIT, HalvesClusterIT (a fourth node joins) then
 * PartitionClusterIT (it leaves) on H2. Each suite that starts a cluster clean is one that needs a
 * fresh one (the first fires of a fresh cluster, on each database). Every cluster of this module
 * listens on the same ports, so one runs at a time: a clean start stops what was left running, and
 * so does the end of the test run.
 */
final class ClusterNodes implements AutoCloseable {

  static final String ADMIN = "it-admin";
  static final String ADMIN_PASSWORD = "it-admin-password";

  /** The machine's PostgreSQL, as .ci/run sets it up: trust authentication, user postgres. */
  private static final String POSTGRESQL = "jdbc:postgresql://127.0.0.1:5432/";

  private final Path script;
  private final int size;
  private final int baseOffset;
  private final Path directory;

  /** The PostgreSQL database the nodes share; null for the H2 file in {@link #directory()}. */
  private final String database;

  /** What the script's processes get on top of failsafe's environment. */
  private final Map<String, String> environment = new HashMap<>();

  /** How long one script command may take; a benchmark on a large store may need more. */
  private static final long COMMAND_TIMEOUT_MINUTES =
      Long.getLong("belfry.cluster.commandTimeoutMinutes", 10);

  /** The cluster a suite left running for the next one, or null. */
  private static ClusterNodes leftRunning;

  private static boolean stopAtExit;

  /** A cluster on H2 (BELFRY_CLUSTER_DB=h2) in the configured BELFRY_CLUSTER_DIR. */
  ClusterNodes(int size) {
    this(size, null);
  }

  private ClusterNodes(int size, String database) {
    this.size = size;
    this.database = database;
    script = root().resolve("server-config/cluster");
    baseOffset = Integer.parseInt(System.getenv().getOrDefault("BELFRY_CLUSTER_OFFSET", "0"));
    Path configured = Path.of(System.getenv("BELFRY_CLUSTER_DIR"));
    directory =
        database == null
            ? configured
            : configured.resolveSibling(configured.getFileName() + "-postgresql");
    environment.put("BELFRY_CLUSTER_DIR", directory.toString());
    environment.put("BELFRY_CLUSTER_DB", database == null ? "h2" : "postgresql");
    if (database != null) {
      environment.put("BELFRY_DB_URL", POSTGRESQL + database);
      // Standby hints are on by default, as the H2 group of suites (failover, halves, partition)
      // runs; the PostgreSQL group runs with them off, so that both ways of arming gained segments
      // run on WildFly nodes.
      environment.put(
          "BELFRY_NODE_OPTS",
          System.getenv().getOrDefault("BELFRY_NODE_OPTS", "") + " -Dbelfry.standby-hints=false");
    }
  }

  /**
   * A cluster whose nodes share PostgreSQL database {@code database} on 127.0.0.1:5432 as their
   * audit database (BELFRY_CLUSTER_DB=postgresql, BELFRY_DB_URL), in a directory of its own:
   * BELFRY_CLUSTER_DIR + "-postgresql". {@link #startClean()} drops and creates that database, so
   * the cluster starts fresh there too; the script never drops one (an operator's {@code clean}
   * keeps theirs).
   */
  static ClusterNodes onPostgresql(int size, String database) {
    if (!database.matches("[a-z_][a-z0-9_]*")) {
      throw new IllegalArgumentException("not a plain database name: " + database);
    }
    return new ClusterNodes(size, database);
  }

  /**
   * Adds {@code options} to every node's JVM options, after failsafe's (a later {@code -D} of the
   * same property wins): for a benchmark that must not run with the suites' settings.
   */
  ClusterNodes withNodeOptions(String options) {
    String before =
        environment.getOrDefault(
            "BELFRY_NODE_OPTS", System.getenv().getOrDefault("BELFRY_NODE_OPTS", ""));
    environment.put("BELFRY_NODE_OPTS", before + " " + options);
    return this;
  }

  /**
   * Whether nodes started from now on get a file store that forces each write to disk
   * (BELFRY_STORE_SYNC_WRITES; the script switches a node's configuration at its start, either
   * way).
   */
  ClusterNodes syncWrites(boolean on) {
    environment.put("BELFRY_STORE_SYNC_WRITES", Boolean.toString(on));
    return this;
  }

  /** Whether node {@code n}'s configuration names the store that forces each write to disk. */
  boolean syncWritesConfigured(int n) {
    try {
      return Files.readString(directory.resolve("node" + n).resolve("configuration/standalone.xml"))
          .contains("io.belfry.cachefunctions.store.SyncWritesFileStoreBuilder");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  int size() {
    return size;
  }

  /**
   * The cluster's directory: node data, H2 audit and cluster key (BELFRY_CLUSTER_DIR; on PostgreSQL
   * its sibling with "-postgresql").
   */
  Path directory() {
    return directory;
  }

  /**
   * Makes a cluster key in {@code dir} with {@code server-config/cluster-key}, as the run command
   * and the cluster script do, unless one is there; returns its properties file (the key store's
   * path and password, for {@code standalone.sh --properties}).
   */
  static Path clusterKey(Path dir) {
    Path script = root().resolve("server-config/cluster-key");
    try {
      Process process =
          new ProcessBuilder(script.toString(), dir.toString())
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      String out = new String(process.getInputStream().readAllBytes()).strip();
      if (!process.waitFor(1, TimeUnit.MINUTES) || process.exitValue() != 0) {
        throw new IllegalStateException(script + " " + dir + " failed");
      }
      return Path.of(out);
    } catch (IOException e) {
      throw new IllegalStateException(script + " did not run", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  static Path root() {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.exists(root.resolve("server-config/cluster"))) {
      root = root.getParent();
    }
    return root;
  }

  /**
   * Deletes every node's data and the audit (on PostgreSQL: drops and creates the database), then
   * starts all nodes and waits for each.
   */
  ClusterNodes startClean() {
    stopLeftRunning();
    run("clean");
    if (database != null) {
      recreateDatabase();
    }
    run("start", String.valueOf(size));
    return this;
  }

  /**
   * Goes on with the cluster the previous suite left running if it is this one (same directory,
   * which names the database too), with {@code size} nodes: those above are stopped (a graceful
   * leave), missing ones started, and every one waited for. Otherwise starts this cluster clean,
   * which stops the other.
   */
  ClusterNodes startCleanOrTakeOver() {
    ClusterNodes left;
    synchronized (ClusterNodes.class) {
      left = leftRunning;
      if (left == null || !left.directory.equals(directory)) {
        left = null; // not this cluster: the clean start stops it
      } else {
        leftRunning = null;
      }
    }
    if (left == null) {
      return startClean();
    }
    for (int n = left.size; n > size; n--) {
      stop(n);
    }
    startAll();
    return this;
  }

  /**
   * Leaves the nodes running for the next suite ({@link #startCleanOrTakeOver}); they are stopped
   * by the next clean start, or when the test run ends.
   */
  void leaveRunning() {
    synchronized (ClusterNodes.class) {
      leftRunning = this;
      if (!stopAtExit) {
        stopAtExit = true;
        Runtime.getRuntime().addShutdownHook(new Thread(ClusterNodes::stopLeftRunning));
      }
    }
  }

  /** Stops the cluster a suite left running, if any: before a cluster that is not it starts. */
  static void stopLeftRunning() {
    ClusterNodes left;
    synchronized (ClusterNodes.class) {
      left = leftRunning;
      leftRunning = null;
    }
    if (left != null) {
      left.close();
    }
  }

  private void recreateDatabase() {
    Properties user = new Properties();
    user.setProperty("user", "postgres");
    try (Connection connection = DriverManager.getConnection(POSTGRESQL + "test", user);
        Statement statement = connection.createStatement()) {
      statement.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
      statement.execute("CREATE DATABASE " + database);
    } catch (SQLException e) {
      throw new IllegalStateException("could not make a fresh database " + database, e);
    }
  }

  /** Starts node {@code n} (1-based) if it is not running, and waits until it is healthy. */
  void start(int n) {
    run("start-node", String.valueOf(n));
  }

  /**
   * Starts every node that is not running and waits for all of them; with none running, the script
   * starts the node whose file store was written last first, alone, then the others in parallel.
   */
  void startAll() {
    run("start", String.valueOf(size));
  }

  void stop(int n) {
    run("stop", String.valueOf(n));
  }

  void kill(int n) {
    run("kill", String.valueOf(n));
  }

  void killAll() {
    for (int n = 1; n <= size; n++) {
      kill(n);
    }
  }

  String name(int n) {
    return "node" + n;
  }

  Api api(int n) {
    return new Api(consoleUrl(n) + "api/v1");
  }

  /**
   * Node {@code n}'s own loopback address for JGroups, as {@code server-config/cluster} gives it:
   * 127.0.0.(10 + n), never 127.0.0.1 ({@link Partition} says why).
   */
  static String jgroupsAddress(int n) {
    return "127.0.0." + (10 + n);
  }

  /** The nodes' JGroups endpoints as TCPPING lists them: address[7600 + offset]. */
  String jgroupsHosts() {
    List<String> hosts = new ArrayList<>();
    for (int n = 1; n <= size; n++) {
      hosts.add(jgroupsAddress(n) + "[" + (7600 + baseOffset + 100 * (n - 1)) + "]");
    }
    return String.join(",", hosts);
  }

  /** The application's root on node {@code n}, ending with a slash. */
  String consoleUrl(int n) {
    return "http://127.0.0.1:" + (8080 + baseOffset + 100 * (n - 1)) + "/belfry/";
  }

  @Override
  public void close() {
    run("stop");
  }

  private void run(String... args) {
    List<String> command = new ArrayList<>();
    command.add(script.toString());
    command.addAll(List.of(args));
    try {
      ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
      builder.environment().putAll(environment);
      Process process = builder.start();
      boolean ended = process.waitFor(COMMAND_TIMEOUT_MINUTES, TimeUnit.MINUTES);
      if (!ended || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IllegalStateException(
            String.join(" ", command)
                + (ended
                    ? " failed (exit code " + process.exitValue() + ")"
                    : " did not end within " + COMMAND_TIMEOUT_MINUTES + " minutes")
                + "; the nodes' last words:"
                + NodeLogs.summary(directory));
      }
    } catch (IOException e) {
      throw new IllegalStateException(String.join(" ", command) + " did not run", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
