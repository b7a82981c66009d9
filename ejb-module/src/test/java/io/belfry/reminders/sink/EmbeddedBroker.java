package io.belfry.reminders.sink;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;

/**
 * An ActiveMQ Artemis broker in the test JVM: one TCP acceptor on a free loopback port, no
 * persistence, no security, queues and addresses created on first use. Stoppable and startable
 * again on the same port. Shared with web-ui's integration tests through this module's test-jar.
 */
public final class EmbeddedBroker implements AutoCloseable {

  private final int port;
  private EmbeddedActiveMQ broker;

  public EmbeddedBroker() throws IOException {
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
  }

  public String url() {
    return "tcp://127.0.0.1:" + port;
  }

  public EmbeddedBroker start() throws Exception {
    broker =
        new EmbeddedActiveMQ()
            .setConfiguration(
                new ConfigurationImpl()
                    .setPersistenceEnabled(false)
                    .setSecurityEnabled(false)
                    .setJMXManagementEnabled(false)
                    .addAcceptorConfiguration("tcp", url()))
            .start();
    return this;
  }

  /** Client connections open now. */
  public int connectionCount() {
    return broker.getActiveMQServer().getConnectionCount();
  }

  public void stop() throws Exception {
    if (broker != null) {
      broker.stop();
      broker = null;
    }
  }

  @Override
  public void close() throws Exception {
    stop();
  }
}
