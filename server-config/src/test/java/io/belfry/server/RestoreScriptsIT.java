package io.belfry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The restore scripts of {@code src/main/cli} undo the configure scripts on a running server, and
 * the configure scripts put everything back (docs/server-configuration.md).
 *
 * <p>Runs on its own copy of the provisioned server ({@code target/restore-check}), started with
 * port offset 300 (management on 10290), so that it never touches the server on 8080/9990 that the
 * other modules' Arquillian tests use. Everything goes through {@code bin/jboss-cli.sh}, as an
 * administrator would run the scripts by hand.
 */
class RestoreScriptsIT {

  private static final int PORT_OFFSET = 300;
  private static final int MANAGEMENT_PORT = 9990 + PORT_OFFSET;
  private static final String CONTROLLER = "127.0.0.1:" + MANAGEMENT_PORT;

  /** The configure scripts in the order the build applies them; restore runs them in reverse. */
  private static final List<String> SCRIPTS =
      List.of(
          "jgroups",
          "cache",
          "executors",
          "postgresql-driver",
          "datasource-h2",
          "security",
          "metrics");

  private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration CLI_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

  /** Short-lived CLI JVMs: C1 only and the serial collector start faster on a busy 2-core box. */
  private static final String CLI_JAVA_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

  /** Reads that never fail, whether Belfry's resources exist or not. */
  private static final Map<String, String> PRESENCE_READS =
      reads(
          "cache-containers",
              "/subsystem=infinispan:read-children-names(child-type=cache-container)",
          "stacks", "/subsystem=jgroups:read-children-names(child-type=stack)",
          "ee-channel-stack", "/subsystem=jgroups/channel=ee:read-attribute(name=stack)",
          "scheduled-executors",
              "/subsystem=ee:read-children-names(child-type=managed-scheduled-executor-service)",
          "executors", "/subsystem=ee:read-children-names(child-type=managed-executor-service)",
          "io-threads", "/subsystem=io/worker=default:read-attribute(name=io-threads)",
          "jdbc-drivers", "/subsystem=datasources:read-children-names(child-type=jdbc-driver)",
          "data-sources", "/subsystem=datasources:read-children-names(child-type=data-source)",
          "custom-realms", "/subsystem=elytron:read-children-names(child-type=custom-realm)",
          "key-stores", "/subsystem=elytron:read-children-names(child-type=key-store)",
          "security-domains",
              "/subsystem=undertow:read-children-names(child-type=application-security-domain)",
          "registries", "/subsystem=micrometer:read-children-names(child-type=registry)");

  /** Key attributes of Belfry's resources; these fail if a resource is missing. */
  private static final Map<String, String> DETAIL_READS =
      reads(
          "container", "/subsystem=infinispan/cache-container=belfry:read-resource",
          "container-channel",
              "/subsystem=infinispan/cache-container=belfry/transport=jgroups"
                  + ":read-attribute(name=channel)",
          "caches",
              "/subsystem=infinispan/cache-container=belfry"
                  + ":read-children-names(child-type=replicated-cache)",
          "store",
              "/subsystem=infinispan/cache-container=belfry/replicated-cache=reminders/store=file"
                  + ":read-resource",
          "partition-handling",
              "/subsystem=infinispan/cache-container=belfry/replicated-cache=reminders"
                  + "/component=partition-handling:read-resource",
          "tcp-properties",
              "/subsystem=jgroups/stack=belfry-tcp/transport=TCP:read-attribute(name=properties)",
          "stack",
              // read-resource lists the protocols in stack order (read-children-names sorts them)
              "/subsystem=jgroups/stack=belfry-tcp:read-resource",
          "encrypt", "/subsystem=jgroups/stack=belfry-tcp/protocol=SYM_ENCRYPT:read-resource",
          "cluster-key",
              "/subsystem=elytron/key-store=belfry-cluster-key:read-resource(include-runtime)",
          "tcpping",
              "/subsystem=jgroups/stack=belfry-tcp/protocol=org.jgroups.protocols.TCPPING"
                  + ":read-attribute(name=properties)",
          "scheduler",
              "/subsystem=ee/managed-scheduled-executor-service=belfry-scheduler:read-resource",
          "delivery", "/subsystem=ee/managed-executor-service=belfry-delivery:read-resource",
          "driver", "/subsystem=datasources/jdbc-driver=postgresql:read-resource",
          "datasource", "/subsystem=datasources/data-source=BelfryDS:read-resource",
          "http-auth", "/subsystem=elytron/http-authentication-factory=belfry-http:read-resource");

  private static Path cliDir;
  private static Path server;
  private static Path work;
  private static Process process;

  /** standalone.sh and the server JVM it starts, as seen while waiting for boot. */
  private static final Set<ProcessHandle> serverProcesses = new LinkedHashSet<>();

  private static Map<String, JsonValue> bootState;

  @BeforeAll
  static void startCopyOfProvisionedServer() throws Exception {
    cliDir = Path.of(requiredProperty("belfry.cli.dir"));
    Path provisioned = Path.of(requiredProperty("belfry.restore-check.source"));
    server = Path.of(requiredProperty("belfry.restore-check.dir"));
    work = server.resolveSibling(server.getFileName() + "-work");
    assertThat(provisioned.resolve("bin/standalone.sh")).as("provisioned server").isExecutable();
    assertThat(portInUse(MANAGEMENT_PORT))
        .as("port %d is already in use: a restore-check server left running?", MANAGEMENT_PORT)
        .isFalse();

    deleteTree(server);
    deleteTree(work);
    Files.createDirectories(work);
    copyTree(provisioned, server);

    ProcessBuilder builder =
        new ProcessBuilder(
                server.resolve("bin/standalone.sh").toString(),
                "-Djboss.socket.binding.port-offset=" + PORT_OFFSET,
                "-Djboss.node.name=restore-check",
                // the cluster key, as every node reads it (docs/security.md)
                "--properties=" + requiredProperty("belfry.cluster.key-properties"))
            .directory(server.toFile())
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("server-console.log").toFile());
    builder.environment().remove("JBOSS_HOME");
    builder.environment().remove("JAVA_OPTS");
    builder.environment().put("LAUNCH_JBOSS_IN_BACKGROUND", "true");
    process = builder.start();

    bootState = awaitRunning(BOOT_TIMEOUT);
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (process == null) {
      return;
    }
    List<ProcessHandle> all = new ArrayList<>(serverProcesses);
    process.descendants().forEach(all::add);
    all.add(process.toHandle());
    try {
      if (process.isAlive()) {
        cli("shutdown", List.of("--command=:shutdown"));
      }
      process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } finally {
      for (ProcessHandle handle : all) {
        if (handle.isAlive()) {
          handle.destroyForcibly();
        }
      }
      for (ProcessHandle handle : all) {
        handle.onExit().get(10, TimeUnit.SECONDS);
      }
    }
    assertThat(all).as("server processes").noneMatch(ProcessHandle::isAlive);
  }

  @Test
  void restoreThenConfigure_onRunningServer_removesThenRestoresEveryResource() throws Exception {
    assertConfigured(bootState, "as provisioned");
    assertOneIoThread(bootState, "as provisioned");

    for (String script : reversed(SCRIPTS)) {
      runScript("restore-" + script + ".cli");
    }
    // as docs/server-configuration.md says: reload after restoring (the Prometheus registry's
    // management context is only released by a reload)
    cli("reload", List.of("--command=:reload"));
    Map<String, JsonValue> restored = awaitRunning(BOOT_TIMEOUT, PRESENCE_READS);
    assertThat(names(restored, "cache-containers")).doesNotContain("belfry");
    assertThat(names(restored, "stacks")).doesNotContain("belfry-tcp").contains("udp");
    assertThat(string(restored, "ee-channel-stack")).isEqualTo("udp");
    assertThat(names(restored, "scheduled-executors")).doesNotContain("belfry-scheduler");
    assertThat(names(restored, "executors")).doesNotContain("belfry-delivery");
    // the io subsystem answers the number in use: undefined, or WildFly's two per core
    assertThat(restored.get("io-threads"))
        .as("the HTTP listener's I/O threads back to WildFly's default")
        .isNotEqualTo(Json.createValue("1"));
    assertThat(names(restored, "jdbc-drivers")).doesNotContain("postgresql").contains("h2");
    assertThat(names(restored, "data-sources")).doesNotContain("BelfryDS");
    assertThat(names(restored, "custom-realms")).doesNotContain("belfry-realm");
    assertThat(names(restored, "key-stores")).doesNotContain("belfry-cluster-key");
    assertThat(names(restored, "security-domains")).doesNotContain("belfry");
    assertThat(names(restored, "registries")).doesNotContain("prometheus");

    for (String script : SCRIPTS) {
      runScript("configure-" + script + ".cli");
    }
    assertConfigured(read(both()), "after the configure scripts");

    cli("reload", List.of("--command=:reload"));
    Map<String, JsonValue> reloaded = awaitRunning(BOOT_TIMEOUT);
    assertConfigured(reloaded, "after reload");
    assertOneIoThread(reloaded, "after reload");
  }

  /**
   * {@code ${belfry.http.io-threads:1}} in the configuration. The io subsystem answers the number
   * of threads in use, which changes only with a reload, so this is not part of {@link
   * #assertConfigured}, which also runs right after the configure scripts, before the reload.
   */
  private static void assertOneIoThread(Map<String, JsonValue> state, String when) {
    assertThat(state.get("io-threads"))
        .as(when + ": one I/O thread for the HTTP listener unless the operator says otherwise")
        .isEqualTo(Json.createValue("1"));
  }

  private static void assertConfigured(Map<String, JsonValue> state, String when) {
    assertThat(names(state, "cache-containers")).as(when).contains("belfry");
    assertThat(names(state, "stacks")).as(when).contains("belfry-tcp", "udp");
    assertThat(string(state, "ee-channel-stack")).as(when).isEqualTo("belfry-tcp");
    assertThat(names(state, "scheduled-executors")).as(when).contains("belfry-scheduler");
    assertThat(names(state, "executors")).as(when).contains("belfry-delivery");
    assertThat(names(state, "jdbc-drivers")).as(when).contains("postgresql", "h2");
    assertThat(names(state, "data-sources")).as(when).contains("BelfryDS");
    assertThat(names(state, "custom-realms")).as(when).contains("belfry-realm");
    assertThat(names(state, "key-stores")).as(when).contains("belfry-cluster-key");
    assertThat(names(state, "security-domains")).as(when).contains("belfry");
    assertThat(names(state, "registries")).as(when).contains("prometheus");
    assertThat(state.get("http-auth").asJsonObject().getString("security-domain"))
        .as(when)
        .isEqualTo("belfry-domain");

    JsonObject container = state.get("container").asJsonObject();
    assertThat(container.getString("default-cache")).as(when).isEqualTo("reminders");
    assertThat(container.getString("marshaller")).as(when).isEqualTo("PROTOSTREAM");
    assertThat(container.getJsonArray("modules").getValuesAs(JsonString::getString))
        .as(when + ": the container's modules (the grouped writes' function among them)")
        .containsExactly(
            "org.wildfly.clustering.cache.infinispan.embedded", "io.belfry.cache-functions");
    assertThat(string(state, "container-channel")).as(when).isEqualTo("ee");
    assertThat(names(state, "caches"))
        .as(when)
        .containsExactlyInAnyOrder("reminders", "revoked-tokens", "engines");

    JsonObject store = state.get("store").asJsonObject();
    assertThat(store.getBoolean("passivation")).as(when + ": store passivation").isFalse();
    assertThat(store.getBoolean("purge")).as(when + ": store purge").isFalse();
    assertThat(store.getBoolean("preload")).as(when + ": store preload").isTrue();
    assertThat(store.getBoolean("shared")).as(when + ": store shared").isFalse();

    JsonObject partitions = state.get("partition-handling").asJsonObject();
    assertThat(partitions.getString("when-split")).as(when).isEqualTo("DENY_READ_WRITES");
    assertThat(partitions.getString("merge-policy")).as(when).isEqualTo("NONE");
    assertThat(
            state
                .get("tcp-properties")
                .asJsonObject()
                .getJsonObject("client_bind_addr")
                .getString("EXPRESSION_VALUE"))
        .as(when + ": client sockets bound to the node's private address")
        .isEqualTo("${jboss.bind.address.private:127.0.0.1}");
    assertThat(state.get("tcp-properties").asJsonObject())
        .as(when + ": no Nagle delay, no per-destination bundler")
        .containsEntry("tcp_nodelay", Json.createValue("true"))
        .containsEntry("bundler_type", Json.createValue("transfer-queue"));
    assertThat(
            state
                .get("tcp-properties")
                .asJsonObject()
                .getJsonObject("sock_conn_timeout")
                .getString("EXPRESSION_VALUE"))
        .as(when + ": a connect to a cut-off member blocks the sender for 300 ms, not 2 s")
        .isEqualTo("${belfry.cluster.connect-timeout:300}");

    JsonObject stack = state.get("stack").asJsonObject();
    assertThat(stack.getJsonObject("transport").keySet()).as(when).containsExactly("TCP");
    assertThat(stack.getJsonObject("protocol").keySet())
        .as(when + ": protocols in stack order")
        .containsExactly(
            "RED",
            "org.jgroups.protocols.TCPPING",
            "MERGE3",
            "org.jgroups.protocols.FD_SOCK2",
            "FD_ALL3",
            "VERIFY_SUSPECT2",
            "SYM_ENCRYPT",
            "SERIALIZE",
            "pbcast.NAKACK2",
            "UNICAST3",
            "pbcast.STABLE",
            "pbcast.GMS",
            "FRAG4");

    JsonObject encrypt = state.get("encrypt").asJsonObject();
    assertThat(encrypt.getString("key-store")).as(when).isEqualTo("belfry-cluster-key");
    assertThat(encrypt.getString("key-alias")).as(when).isEqualTo("belfry-cluster");
    assertThat(encrypt.getJsonObject("properties"))
        .as(when + ": CBC with a random IV per message, not JGroups' default ECB")
        .containsEntry("sym_algorithm", Json.createValue("AES/CBC/PKCS5Padding"))
        .containsEntry("sym_iv_length", Json.createValue("16"));
    JsonObject key = state.get("cluster-key").asJsonObject();
    assertThat(key.getJsonObject("path").getString("EXPRESSION_VALUE"))
        .as(when + ": the key store is named at boot, never one of the build")
        .isEqualTo("${belfry.cluster.key-store:${jboss.server.data.dir}/cluster-key.p12}");
    assertThat(key.getJsonObject("credential-reference").getJsonObject("clear-text"))
        .as(when + ": nor a fixed password")
        .containsEntry(
            "EXPRESSION_VALUE", Json.createValue("${belfry.cluster.key-password:unset}"));
    assertThat(key.getString("state")).as(when + ": the key store loaded").isEqualTo("UP");
    assertThat(key.getInt("size"))
        .as(when + ": one entry, the secret key of the file the properties name")
        .isEqualTo(1);

    JsonObject tcpping = state.get("tcpping").asJsonObject();
    assertThat(tcpping.getJsonObject("initial_hosts").getString("EXPRESSION_VALUE"))
        .as(when + ": TCPPING initial_hosts stays an expression")
        .isEqualTo("${belfry.cluster.members:127.0.0.1[7600]}");
    assertThat(tcpping.getString("port_range")).as(when).isEqualTo("0");

    assertThat(state.get("scheduler").asJsonObject().getString("jndi-name"))
        .as(when)
        .isEqualTo("java:jboss/ee/concurrency/scheduler/belfry");
    assertThat(state.get("delivery").asJsonObject().getString("jndi-name"))
        .as(when)
        .isEqualTo("java:jboss/ee/concurrency/executor/belfry");

    assertThat(state.get("driver").asJsonObject().getString("driver-module-name"))
        .as(when)
        .isEqualTo("org.postgresql");

    JsonObject datasource = state.get("datasource").asJsonObject();
    assertThat(datasource.getString("jndi-name"))
        .as(when)
        .isEqualTo("java:jboss/datasources/BelfryDS");
    assertThat(datasource.getString("driver-name")).as(when).isEqualTo("h2");
  }

  /**
   * Polls {@code :read-attribute(name=server-state)} until it says {@code running}, then returns
   * the presence and detail reads taken by the same CLI run, right after it.
   */
  private static Map<String, JsonValue> awaitRunning(Duration timeout) throws Exception {
    return awaitRunning(timeout, both());
  }

  /** Like {@link #awaitRunning(Duration)}, with only {@code then} read after the state. */
  private static Map<String, JsonValue> awaitRunning(Duration timeout, Map<String, String> then)
      throws Exception {
    Map<String, String> reads = new LinkedHashMap<>();
    reads.put("server-state", ":read-attribute(name=server-state)");
    reads.putAll(then);
    Path script = writeReadScript("await-running", reads);
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        fail("the server exited with %d during boot; see %s", process.exitValue(), consoleLog());
      }
      process.descendants().forEach(serverProcesses::add);
      CliRun run = cli("await-running", List.of("--output-json", "--file=" + script));
      last = run.output();
      Map<String, JsonObject> responses = run.responses();
      JsonObject state = responses.get("server-state");
      if (state != null && "running".equals(state.getString("result", ""))) {
        // the server-state read came first, so every read after it saw the running server
        return results(run, reads);
      }
    }
    return fail(
        "the server was not running after %s; last CLI output:%n%s%nsee %s",
        timeout, last, consoleLog());
  }

  private static void runScript(String name) throws Exception {
    Path script = cliDir.resolve(name);
    assertThat(script).as("CLI script").isRegularFile();
    CliRun run = cli(name, List.of("--file=" + script));
    assertThat(run.exitCode()).as("%s failed:%n%s", name, run.output()).isZero();
  }

  private static Map<String, JsonValue> read(Map<String, String> reads) throws Exception {
    Path script = writeReadScript("read", reads);
    CliRun run = cli("read", List.of("--output-json", "--file=" + script));
    assertThat(run.exitCode()).as("reads failed:%n%s", run.output()).isZero();
    return results(run, reads);
  }

  private static Map<String, JsonValue> results(CliRun run, Map<String, String> reads) {
    Map<String, JsonObject> responses = run.responses();
    Map<String, JsonValue> results = new LinkedHashMap<>();
    for (String name : reads.keySet()) {
      JsonObject response = responses.get(name);
      assertThat(response).as("response to %s in:%n%s", reads.get(name), run.output()).isNotNull();
      assertThat(response.getString("outcome"))
          .as("%s: %s", reads.get(name), response)
          .isEqualTo("success");
      results.put(name, response.get("result"));
    }
    return results;
  }

  /** A CLI script of reads, each announced by an {@code echo @@name} line to split the output. */
  private static Path writeReadScript(String name, Map<String, String> reads) throws IOException {
    StringBuilder script = new StringBuilder();
    reads.forEach(
        (key, operation) ->
            script.append("echo @@").append(key).append('\n').append(operation).append('\n'));
    return Files.writeString(work.resolve(name + ".cli"), script.toString());
  }

  private static CliRun cli(String label, List<String> arguments) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(server.resolve("bin/jboss-cli.sh").toString());
    command.add("--connect");
    command.add("--controller=" + CONTROLLER);
    command.addAll(arguments);
    Path output = Files.createTempFile(work, "cli-" + label + "-", ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(server.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    builder.environment().remove("JBOSS_HOME");
    builder.environment().put("JAVA_OPTS", CLI_JAVA_OPTS);
    Process cli = builder.start();
    if (!cli.waitFor(CLI_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      cli.descendants().forEach(ProcessHandle::destroyForcibly);
      cli.destroyForcibly().waitFor();
      fail("%s did not finish within %s: %s", command, CLI_TIMEOUT, Files.readString(output));
    }
    return new CliRun(cli.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
  }

  /** Output of one jboss-cli.sh run. */
  private record CliRun(int exitCode, String output) {

    /** With {@code --output-json}: each JSON response, named by the echo line before it. */
    Map<String, JsonObject> responses() {
      Map<String, JsonObject> responses = new LinkedHashMap<>();
      String name = null;
      StringBuilder json = new StringBuilder();
      for (String line : (output + "\n@@").lines().toList()) {
        if (line.startsWith("@@")) {
          if (name != null && json.toString().strip().startsWith("{")) {
            try (JsonReader reader = Json.createReader(new StringReader(json.toString()))) {
              responses.put(name, reader.readObject());
            }
          }
          name = line.substring(2).strip();
          json.setLength(0);
        } else {
          json.append(line).append('\n');
        }
      }
      return responses;
    }
  }

  private static List<String> names(Map<String, JsonValue> state, String key) {
    return state.get(key).asJsonArray().getValuesAs(JsonString.class).stream()
        .map(JsonString::getString)
        .toList();
  }

  private static String string(Map<String, JsonValue> state, String key) {
    return ((JsonString) state.get(key)).getString();
  }

  private static List<String> reversed(List<String> list) {
    List<String> copy = new ArrayList<>(list);
    Collections.reverse(copy);
    return copy;
  }

  private static Map<String, String> both() {
    Map<String, String> reads = new LinkedHashMap<>(PRESENCE_READS);
    reads.putAll(DETAIL_READS);
    return reads;
  }

  private static Map<String, String> reads(String... nameThenOperation) {
    Map<String, String> reads = new LinkedHashMap<>();
    for (int i = 0; i < nameThenOperation.length; i += 2) {
      reads.put(nameThenOperation[i], nameThenOperation[i + 1]);
    }
    return reads;
  }

  private static String requiredProperty(String name) {
    String value = System.getProperty(name);
    assertThat(value).as("system property %s (set by failsafe)", name).isNotBlank();
    return value;
  }

  private static boolean portInUse(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static Path consoleLog() {
    return work.resolve("server-console.log");
  }

  private static void copyTree(Path from, Path to) throws IOException {
    Files.walkFileTree(
        from,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
              throws IOException {
            Files.createDirectories(to.resolve(from.relativize(dir)));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.copy(
                file,
                to.resolve(from.relativize(file)),
                StandardCopyOption.COPY_ATTRIBUTES,
                StandardCopyOption.REPLACE_EXISTING);
            return FileVisitResult.CONTINUE;
          }
        });
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
        Files.delete(path);
      }
    }
  }
}
