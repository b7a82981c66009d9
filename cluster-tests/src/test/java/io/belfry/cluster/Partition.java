package io.belfry.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real network partition on loopback: each node's JGroups endpoint has its own address ({@link
 * ClusterNodes#jgroupsAddress}, see server-config/cluster), and iptables drops the packets between
 * the two sides in a chain of its own, which {@link #heal} empties and {@link #close} removes.
 * Needs root and the iptables package ({@code .ci/run} installs it).
 *
 * <p>What it does not cut: sockets a node opens without binding them leave from 127.0.0.1, which no
 * node has; JGroups' FD_SOCK2 connects that way, so its connections cross the cut. Failure
 * detection across the cut is then FD_ALL3's heartbeats over the transport (whose sockets are
 * bound), as on a real network, where a cut closes no socket either. When node 1 had 127.0.0.1, a
 * cut of node 1 also cut the FD_SOCK2 connects between the other nodes: they suspected each other
 * and the side that should have kept a majority fell apart (3 of 6 cuts of {node1} | {node2,
 * node3}; docs/server-configuration.md).
 */
final class Partition implements AutoCloseable {

  private static final String CHAIN = "BELFRY_PARTITION";

  static boolean available() {
    try {
      return exec("iptables", "-w", "-L", "INPUT", "-n") == 0;
    } catch (IOException e) {
      return false;
    }
  }

  Partition() throws IOException {
    exec("iptables", "-w", "-N", CHAIN);
    if (exec("iptables", "-w", "-C", "INPUT", "-j", CHAIN) != 0) {
      require("iptables", "-w", "-I", "INPUT", "-j", CHAIN);
    }
    require("iptables", "-w", "-F", CHAIN);
  }

  /**
   * Cuts every packet between node {@code isolated} and the other nodes of a {@code size} cluster.
   */
  void isolate(int isolated, int size) throws IOException {
    for (int other = 1; other <= size; other++) {
      if (other != isolated) {
        drop(isolated, other);
        drop(other, isolated);
      }
    }
  }

  /** Cuts every packet between each node of {@code side} and each node of {@code otherSide}. */
  void split(List<Integer> side, List<Integer> otherSide) throws IOException {
    for (int one : side) {
      for (int other : otherSide) {
        drop(one, other);
        drop(other, one);
      }
    }
  }

  void heal() throws IOException {
    require("iptables", "-w", "-F", CHAIN);
  }

  @Override
  public void close() throws IOException {
    exec("iptables", "-w", "-F", CHAIN);
    exec("iptables", "-w", "-D", "INPUT", "-j", CHAIN);
    exec("iptables", "-w", "-X", CHAIN);
  }

  private static void drop(int from, int to) throws IOException {
    require(
        "iptables",
        "-w",
        "-A",
        CHAIN,
        "-s",
        ClusterNodes.jgroupsAddress(from),
        "-d",
        ClusterNodes.jgroupsAddress(to),
        "-j",
        "DROP");
  }

  private static void require(String... command) throws IOException {
    if (exec(command) != 0) {
      throw new IOException(String.join(" ", command) + " failed");
    }
  }

  private static int exec(String... command) throws IOException {
    List<String> line = new ArrayList<>(List.of(command));
    Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
    try {
      process.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return -1;
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
