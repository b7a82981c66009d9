package io.belfry.reminders.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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

  /** A TCP port free on loopback right now. */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
