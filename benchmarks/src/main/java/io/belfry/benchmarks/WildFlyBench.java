package io.belfry.benchmarks;

import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.bench.BenchNode;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * Belfry on a provisioned WildFly server (issue 8): the same workloads ({@link Workloads}), but
 * generated and counted inside one WildFly server, through Belfry's Java API. The harness assembles
 * a bench WAR — the engine jar and cron-utils as an application bundles them, the harness's own
 * classes (the load driver {@link BenchEndpoint}, {@link Workloads}, {@link Clients}, {@link
 * Fires}, …) and HdrHistogram — starts the server that {@code server-config} provisions on a copy
 * of its {@code standalone} folder (port offset, node name {@value #NODE}), deploys the WAR through
 * the deployment scanner, asks the driver to run and merges the figures it returns. The server is
 * shut down at the end. CPU and heap rows are the server process's ({@link Usage} runs inside it).
 */
final class WildFlyBench {

  private static final Logger LOG = Logger.getLogger(WildFlyBench.class.getName());
  static final String NODE = "bench";
  static final String WAR = "bench.war";
  private static final Duration BOOT = Duration.ofMinutes(4);
  private static final Duration RUN = Duration.ofMinutes(30);

  private WildFlyBench() {}

  static void run(Options o, Results results, String group) throws Exception {
    Path home = o.wildFlyHome().toAbsolutePath();
    if (!Files.isExecutable(home.resolve("bin/standalone.sh"))) {
      throw new IllegalStateException(
          "no provisioned server at "
              + home
              + "; build it with mvn -o -B -pl server-config package -DskipTests");
    }
    Path base = o.work().resolve("wildfly").toAbsolutePath();
    BelfryContender.deleteTree(base);
    copyTree(home.resolve("standalone"), base);
    BelfryContender.deleteTree(base.resolve("data"));
    writeWar(base.resolve("deployments").resolve(WAR));
    Process server = start(o, home, base);
    try {
      awaitDeployed(base.resolve("deployments"), server::isAlive, base.resolve("console.log"));
      drive(o, results, group, 8080 + o.wildFlyPortOffset(), server::isAlive);
      results.note(
          "%s: one WildFly server (%s, heap %s, port offset %d), workloads generated and fires"
              + " counted inside it through the injected Reminders bean and a CDI observer; CPU"
              + " and heap rows are the server process's; settle() cannot restart a deployment's"
              + " engine, so a restart note of this system means it ran on.",
          Results.WILDFLY, home, o.wildFlyHeap(), o.wildFlyPortOffset());
    } finally {
      stop(o, home, server);
    }
  }

  /**
   * Starts the workloads in the bench WAR of the server at {@code httpPort} and merges the figures
   * it returns when they are done.
   */
  static void drive(Options o, Results results, String group, int httpPort, BooleanSupplier alive)
      throws IOException, InterruptedException {
    String url = "http://127.0.0.1:" + httpPort + "/bench/workloads?group=" + group;
    URI uri = URI.create(url.replace(" ", "%20"));
    HttpClient http = HttpClient.newHttpClient();
    String arguments = String.join("\n", arguments(o));
    HttpResponse<String> started =
        http.send(
            HttpRequest.newBuilder(uri)
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(arguments))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (started.statusCode() != 202) {
      throw new IllegalStateException("the driver refused the run: " + started.statusCode());
    }
    long deadline = System.nanoTime() + RUN.toNanos();
    while (true) {
      LockSupport.parkNanos(2_000_000_000L);
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 200) {
        results.merge(r.body());
        return;
      }
      if (r.statusCode() != 202) {
        throw new IllegalStateException("the run failed in the server: " + r.body());
      }
      if (System.nanoTime() > deadline || !alive.getAsBoolean()) {
        throw new IllegalStateException("no result from the server within " + RUN);
      }
    }
  }

  /** The harness's own arguments, minus those that only the harness reads. */
  private static List<String> arguments(Options o) {
    String command = o.command();
    int space = command.indexOf(' ');
    return space < 0
        ? List.of()
        : Arrays.stream(command.substring(space + 1).split(" "))
            .filter(a -> !a.startsWith("--systems=") && !a.startsWith("--work="))
            .filter(a -> !a.startsWith("--out=") && !a.startsWith("--wildfly-"))
            .toList();
  }

  private static Process start(Options o, Path home, Path base) throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder(
            home.resolve("bin/standalone.sh").toString(),
            "-Djboss.server.base.dir=" + base,
            "-Djboss.socket.binding.port-offset=" + o.wildFlyPortOffset(),
            "-Djboss.node.name=" + NODE,
            // its own cluster key, as every node needs one (docs/security.md)
            "--properties=" + clusterKey(base),
            "-Djboss.bind.address=127.0.0.1",
            "-Djboss.bind.address.management=127.0.0.1",
            // the backlog limiter opened up as for Belfry in-JVM (BenchNode.UNTHROTTLED)
            "-Dbelfry.backfill-rate=" + BenchNode.UNTHROTTLED.backfillRatePerSecond(),
            "-Dbelfry.backlog-lateness=" + BenchNode.UNTHROTTLED.backlogLateness());
    pb.environment().put("JBOSS_JAVA_SIZING", "-Xms" + o.wildFlyHeap() + " -Xmx" + o.wildFlyHeap());
    pb.environment().put("LAUNCH_JBOSS_IN_BACKGROUND", "1");
    pb.redirectErrorStream(true);
    pb.redirectOutput(base.resolve("console.log").toFile());
    LOG.info("starting WildFly " + home + " on " + base + ", port offset " + o.wildFlyPortOffset());
    return pb.start();
  }

  /** A cluster key made by {@code server-config/cluster-key} in {@code dir}: its properties. */
  private static String clusterKey(Path dir) throws IOException {
    Path script = Path.of("server-config/cluster-key").toAbsolutePath();
    Process process =
        new ProcessBuilder(script.toString(), dir.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String properties = new String(process.getInputStream().readAllBytes()).strip();
    try {
      if (process.waitFor() != 0) {
        throw new IllegalStateException(script + " failed; run the harness from the checkout");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
    return properties;
  }

  /** Waits for the deployment scanner's marker of the bench WAR in {@code deployments}. */
  static void awaitDeployed(Path deployments, BooleanSupplier alive, Path log) {
    long deadline = System.nanoTime() + BOOT.toNanos();
    while (!Files.exists(deployments.resolve(WAR + ".deployed"))) {
      if (Files.exists(deployments.resolve(WAR + ".failed"))) {
        throw new IllegalStateException(
            "deployment failed; see " + deployments.resolve(WAR + ".failed"));
      }
      if (!alive.getAsBoolean() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "server not up with " + WAR + " within " + BOOT + "; see " + log);
      }
      LockSupport.parkNanos(500_000_000L);
    }
    LOG.info(WAR + " deployed in " + deployments);
  }

  /** {@code :shutdown} through the CLI; the process tree this harness started if that fails. */
  private static void stop(Options o, Path home, Process server) throws Exception {
    if (server.isAlive()) {
      Process cli =
          new ProcessBuilder(
                  home.resolve("bin/jboss-cli.sh").toString(),
                  "--connect",
                  "--controller=127.0.0.1:" + (9990 + o.wildFlyPortOffset()),
                  "--command=:shutdown")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      cli.waitFor(60, TimeUnit.SECONDS);
    }
    if (!server.waitFor(60, TimeUnit.SECONDS)) {
      server.descendants().forEach(ProcessHandle::destroy);
      server.destroy();
      server.waitFor(30, TimeUnit.SECONDS);
    }
    LOG.info("WildFly stopped");
  }

  // --- The bench WAR ----------------------------------------------------------------------------

  /**
   * The WAR: WEB-INF/classes holds this package's classes (the driver and the harness code it runs)
   * and the {@code BenchNode.Storage} enum {@link Options} names; WEB-INF/lib the engine jar,
   * cron-utils, HdrHistogram and HikariCP ({@link Postgres}, which {@link Usage} calls, names it).
   */
  static void writeWar(Path war) throws IOException {
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest
        .getMainAttributes()
        .putValue(
            "Dependencies",
            "org.infinispan.core, org.infinispan.commons, org.infinispan.protostream,"
                + " jdk.management");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(war), manifest)) {
      put(
          out,
          "WEB-INF/beans.xml",
          ("<beans xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"4.0\""
                  + " bean-discovery-mode=\"annotated\"/>\n")
              .getBytes(StandardCharsets.UTF_8));
      Path classes = codeSource(WildFlyBench.class);
      Path pkg = classes.resolve("io/belfry/benchmarks");
      try (Stream<Path> files = Files.list(pkg)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
          put(out, "WEB-INF/classes/" + classes.relativize(f), Files.readAllBytes(f));
        }
      }
      String storage = "io/belfry/reminders/bench/BenchNode$Storage.class";
      try (InputStream in = WildFlyBench.class.getClassLoader().getResourceAsStream(storage)) {
        put(out, "WEB-INF/classes/" + storage, in.readAllBytes());
      }
      for (Class<?> type :
          List.of(
              Reminders.class,
              com.cronutils.parser.CronParser.class,
              org.HdrHistogram.Histogram.class,
              com.zaxxer.hikari.HikariConfig.class)) {
        Path jar = codeSource(type);
        String name = type == Reminders.class ? "belfry-ejb.jar" : jar.getFileName().toString();
        put(
            out,
            "WEB-INF/lib/" + name,
            Files.isDirectory(jar) ? zip(jar) : Files.readAllBytes(jar));
      }
    }
  }

  private static byte[] zip(Path dir) throws IOException {
    var bytes = new java.io.ByteArrayOutputStream();
    try (JarOutputStream out = new JarOutputStream(bytes);
        Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        put(
            out,
            dir.relativize(f).toString().replace(File.separatorChar, '/'),
            Files.readAllBytes(f));
      }
    }
    return bytes.toByteArray();
  }

  private static void put(JarOutputStream out, String name, byte[] content) throws IOException {
    out.putNextEntry(new JarEntry(name));
    out.write(content);
    out.closeEntry();
  }

  private static Path codeSource(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }
}
