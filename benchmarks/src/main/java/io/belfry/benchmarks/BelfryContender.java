package io.belfry.benchmarks;

import io.belfry.reminders.bench.BenchNode;
import io.belfry.reminders.bench.BenchNode.Storage;
import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.fire.EngineListener;
import io.belfry.reminders.model.ReminderId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Belfry in this JVM: {@code n} members of one cluster on loopback ({@link BenchNode}: REPL_SYNC
 * cache with a Soft-Index file store per member, as WildFly runs it, and a {@code ReminderEngine}
 * per member), or with one member a single-node cluster. Every member's deliveries go to {@link
 * Fires}. The backlog limiter is opened up ({@link BenchNode#UNTHROTTLED}): the peers have none.
 */
final class BelfryContender implements Contender {

  static final String NAMESPACE = "bench";
  private static final byte[] PAYLOAD =
      "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  private final List<BenchNode> nodes = new ArrayList<>();
  private final Path home;

  /** Members started and in one stable topology; {@code fresh} deletes their files first. */
  BelfryContender(Path home, int members, boolean fresh, EngineListener listener, Storage storage) {
    this.home = home;
    if (fresh) {
      deleteTree(home);
    }
    if (members == 1) {
      nodes.add(BenchNode.start(home.resolve("node0"), storage, BenchNode.UNTHROTTLED, listener));
    } else {
      String cluster = "belfry-compare-" + UUID.randomUUID();
      int[] ports = io.belfry.reminders.engine.LoopbackJGroups.freePorts(members);
      for (int i = 0; i < members; i++) {
        nodes.add(
            BenchNode.member(
                home.resolve("node" + i),
                storage,
                BenchNode.UNTHROTTLED,
                listener,
                cluster,
                i,
                ports));
      }
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (!nodes.stream().allMatch(n -> n.members() == members)) {
        if (System.nanoTime() > deadline) {
          close();
          throw new IllegalStateException("no stable topology of " + members + " members in 120 s");
        }
        LockSupport.parkNanos(10_000_000);
      }
    }
    for (BenchNode node : nodes) {
      node.onFire(fire -> Fires.fired(fire.getKey()));
    }
  }

  @Override
  public void schedule(int via, String id, long dueMillis) {
    nodes
        .get(via % nodes.size())
        .engine()
        .set(
            ReminderSpec.once(
                ReminderId.of(NAMESPACE, id), Instant.ofEpochMilli(dueMillis), PAYLOAD));
  }

  @Override
  public void cancel(int via, String id) {
    nodes.get(via % nodes.size()).engine().cancel(ReminderId.of(NAMESPACE, id));
  }

  @Override
  public void pause() {
    nodes.forEach(n -> n.engine().stop());
  }

  @Override
  public long storedBytes() throws IOException {
    return sizeOf(home.resolve("node0"));
  }

  @Override
  public long armed() {
    return nodes.stream().mapToLong(n -> n.engine().armedCount()).sum();
  }

  @Override
  public void close() {
    for (int i = nodes.size() - 1; i >= 0; i--) {
      nodes.get(i).close();
    }
    nodes.clear();
  }

  static long sizeOf(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
