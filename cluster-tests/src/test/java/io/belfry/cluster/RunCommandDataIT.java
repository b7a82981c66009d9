package io.belfry.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The run command ({@code mvn -Prun package}) keeps a node's state in its data directory ({@code
 * -Djboss.server.data.dir}, {@code data/node1} of the checkout by default), not in the provisioned
 * server under {@code target/}: the reminders, the users and the audit outlive a provisioning
 * again, which replaces {@code web-ui/target/server} whole.
 *
 * <p>Here the server is started as the run profile starts it, from a copy of {@code
 * web-ui/target/server} (what provisioning writes), on a data directory of its own. After a
 * reminder and a user are set and the server is stopped, the server tree is deleted and copied
 * afresh, and the new server on the same data directory still has both.
 */
class RunCommandDataIT {

  /** Clear of the cluster tests' nodes (300, 400, 500) and of a development server (0). */
  private static final int OFFSET = 700;

  private static final String BASE = "http://127.0.0.1:" + (8080 + OFFSET) + "/belfry/api/v1";
  private static final Duration BOOT = Duration.ofMinutes(4);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final Path provisioned = root().resolve("web-ui/target/server");
  private final Path work = root().resolve("cluster-tests/target/run-command");
  private final Path data = work.resolve("data");
  private Process server;

  @BeforeAll
  static void noClusterLeftRunning() {
    ClusterNodes.stopLeftRunning(); // its two cores are this suite's
  }

  @Test
  void serverProvisionedAgain_sameDataDirectory_keepsTheReminderAndTheUser() throws Exception {
    deleteTree(work);
    String key = "run-command-" + Instant.now().toEpochMilli();
    String due = Instant.now().plus(Duration.ofDays(1)).toString();

    start(provisionAfresh());
    Api admin = new Api(BASE);
    admin.set(key, "{\"fireAt\":\"" + due + "\",\"payload\":\"kept\"}");
    assertThat(
            admin.status(
                "PUT",
                "/users/run-viewer",
                "{\"password\":\"run-viewer-password\",\"roles\":[\"belfry-viewer\"]}"))
        .isIn(200, 201);
    stop();

    start(provisionAfresh());
    HttpResponse<String> read =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(BASE + "/reminders/default/" + key))
                .header("Authorization", basic("run-viewer", "run-viewer-password"))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(read.statusCode()).as("the user logs in and reads the reminder").isEqualTo(200);
    assertThat(read.body()).contains("\"kept\"").contains(key);
  }

  @AfterEach
  void stopAndDelete() throws Exception {
    stop();
    deleteTree(work);
  }

  /** A server tree as provisioning writes it, in place of the last one. */
  private Path provisionAfresh() throws IOException {
    Path server = work.resolve("server");
    deleteTree(server);
    copyTree(provisioned, server);
    return server;
  }

  private void start(Path home) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(
                home.resolve("bin/standalone.sh").toString(),
                "-Djboss.node.name=run1",
                "-Djboss.server.data.dir=" + data,
                "-Djboss.socket.binding.port-offset=" + OFFSET,
                "-Dbelfry.password-cost=4",
                // the run profile's cluster key, made beside the data as the profile makes it
                "--properties=" + ClusterNodes.clusterKey(data))
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("console.log").toFile());
    builder.environment().put("LAUNCH_JBOSS_IN_BACKGROUND", "true");
    builder.environment().put("BELFRY_ADMIN_USER", ClusterNodes.ADMIN);
    builder.environment().put("BELFRY_ADMIN_PASSWORD", ClusterNodes.ADMIN_PASSWORD);
    server = builder.start();
    Instant deadline = Instant.now().plus(BOOT);
    while (!healthy()) {
      if (Instant.now().isAfter(deadline) || !server.isAlive()) {
        throw new AssertionError(
            "the server did not become healthy; see " + work.resolve("console.log"));
      }
      Thread.sleep(500);
    }
  }

  private static boolean healthy() throws InterruptedException {
    try {
      return HTTP.send(
                  HttpRequest.newBuilder(URI.create(BASE + "/health"))
                      .timeout(Duration.ofSeconds(5))
                      .build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (IOException e) {
      return false;
    }
  }

  /** SIGTERM, as Ctrl-C of the run command: standalone.sh stops the server gracefully. */
  private void stop() throws Exception {
    if (server == null) {
      return;
    }
    List<ProcessHandle> tree =
        Stream.concat(Stream.of(server.toHandle()), server.descendants()).toList();
    server.destroy();
    if (!server.waitFor(90, TimeUnit.SECONDS)) {
      tree.forEach(ProcessHandle::destroyForcibly);
    }
    for (ProcessHandle process : tree) {
      process.onExit().get(30, TimeUnit.SECONDS);
    }
    server = null;
  }

  private static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  private static Path root() {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.exists(root.resolve("server-config/cluster"))) {
      root = root.getParent();
    }
    return root;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        }
      }
    }
  }

  private static void deleteTree(Path tree) throws IOException {
    if (!Files.exists(tree)) {
      return;
    }
    try (Stream<Path> files = Files.walk(tree)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
  }
}
