package io.belfry.reminders.engine;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Collectors;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;

/**
 * Embedded test members' configuration: their global configuration, their file store, and their
 * JGroups, TCP on 127.0.0.1 with a static member list (TCPPING), like Belfry's server stack, with
 * short failure-detection timeouts so that tests see a stopped member leave within seconds, and the
 * server stack's send settings (no Nagle delay, the transfer-queue bundler; see
 * configure-jgroups.cli). Only loopback is ever used.
 */
public final class LoopbackJGroups {

  /** Test members' ports are drawn from here up to below the kernel's ephemeral range. */
  private static final int LOWEST_PORT = 20_000;

  /** FD_SOCK2 listens this far above a member's port, and may try a few ports more. */
  private static final int FD_SOCK2_OFFSET = 100;

  /** The room a member's ports take above its TCP port. */
  private static final int ROOM_ABOVE_PORT = 200;

  private static final Random RANDOM = new Random();

  private LoopbackJGroups() {}

  /** The XML configuration of a member bound to {@code port} in a cluster of {@code members}. */
  public static String tcpConfig(int port, int... members) {
    String hosts =
        Arrays.stream(members)
            .mapToObj(p -> "127.0.0.1[" + p + "]")
            .collect(Collectors.joining(","));
    return """
        <config xmlns="urn:org:jgroups">
          <TCP bind_addr="127.0.0.1" bind_port="%d" port_range="0"
               tcp_nodelay="true" bundler_type="transfer-queue"
               thread_pool.min_threads="0" thread_pool.max_threads="50"/>
          <TCPPING initial_hosts="%s" port_range="0"/>
          <MERGE3 min_interval="2s" max_interval="5s"/>
          <FD_SOCK2/>
          <FD_ALL3 timeout="10s" interval="2s"/>
          <VERIFY_SUSPECT2 timeout="1s"/>
          <pbcast.NAKACK2 use_mcast_xmit="false"/>
          <UNICAST3/>
          <pbcast.STABLE desired_avg_gossip="5s" max_bytes="4M"/>
          <pbcast.GMS print_local_addr="false" join_timeout="1s"/>
          <UFC max_credits="2M" min_threshold="0.4"/>
          <MFC max_credits="2M" min_threshold="0.4"/>
          <FRAG4 frag_size="60K"/>
        </config>
        """
        .formatted(port, hosts);
  }

  /**
   * The global configuration of member {@code nodeName} of {@code clusterName}, bound to {@code
   * port} among {@code members}: its JGroups file written into {@code home}, no global state.
   */
  public static GlobalConfigurationBuilder member(
      Path home, String clusterName, String nodeName, int port, int... members) {
    try {
      Files.createDirectories(home);
      Path jgroups = home.resolve("jgroups.xml");
      Files.writeString(jgroups, tcpConfig(port, members));
      GlobalConfigurationBuilder global = GlobalConfigurationBuilder.defaultClusteredBuilder();
      global
          .transport()
          .clusterName(clusterName)
          .nodeName(nodeName)
          .addProperty("configurationFile", jgroups.toAbsolutePath().toString());
      global.globalState().enabled(false);
      return global;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Gives {@code cache} a Soft-Index file store under {@code home}, preloaded at start, with
   * Infinispan's default asynchronous fsync: the store WildFly gives Belfry's cache.
   */
  public static void fileStore(ConfigurationBuilder cache, Path home) {
    cache
        .persistence()
        .addSoftIndexFileStore()
        .dataLocation(home.resolve("data").toAbsolutePath().toString())
        .indexLocation(home.resolve("index").toAbsolutePath().toString())
        .preload(true);
  }

  /**
   * {@code count} TCP ports free on loopback right now, below the kernel's ephemeral range, each
   * with the port its member's FD_SOCK2 listens on (100 above it) also free, and no port within
   * another's room ({@value #ROOM_ABOVE_PORT} either side).
   *
   * <p>Why below the ephemeral range: a port the kernel hands out itself can be taken before the
   * member binds it, by the local end of any outgoing connection, even by a member's own discovery
   * connect to that very port while nobody listens there yet (TCP's self-connect). A CI rehearsal
   * of 2026-12-07 lost two tests to "No available port to bind to", most likely that way.
   *
   * <p>Why apart: the first member to start binds FD_SOCK2 100 above its port; a later member whose
   * port was drawn there cannot bind it, and its start fails with "Unable to start JGroups Channel"
   * (a CI run of 2026-12-07 lost UnavailableClusterTest so, about one cluster in 700).
   */
  public static int[] freePorts(int count) {
    int high = ephemeralRangeStart() - ROOM_ABOVE_PORT;
    int low = Math.min(LOWEST_PORT, high - 1_000);
    int[] ports = new int[count];
    int found = 0;
    for (int attempt = 0; found < count && attempt < 10_000; attempt++) {
      int port = low + RANDOM.nextInt(high - low);
      if (clearOf(port, ports, found) && bindable(port) && bindable(port + FD_SOCK2_OFFSET)) {
        ports[found++] = port;
      }
    }
    if (found < count) {
      throw new IllegalStateException(
          "no " + count + " free ports on loopback in [" + low + ", " + high + ")");
    }
    return ports;
  }

  /** One free port, as {@link #freePorts}. */
  public static int freePort() {
    return freePorts(1)[0];
  }

  private static boolean clearOf(int port, int[] taken, int count) {
    for (int i = 0; i < count; i++) {
      if (Math.abs(port - taken[i]) <= ROOM_ABOVE_PORT) {
        return false;
      }
    }
    return true;
  }

  private static boolean bindable(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      return true;
    } catch (IOException taken) {
      return false;
    }
  }

  /** The first port of Linux's ephemeral range, 32768 where it cannot be read. */
  private static int ephemeralRangeStart() {
    // read line by line: Files.readString sizes its read by the file's size, which procfs says is 0
    try (BufferedReader in =
        Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
      return Integer.parseInt(in.readLine().trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return 32_768;
    }
  }
}
