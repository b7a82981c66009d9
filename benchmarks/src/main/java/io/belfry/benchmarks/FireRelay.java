package io.belfry.benchmarks;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Carries the fires of the bench WAR on the other nodes of a WildFly cluster ({@link
 * WildFlyCluster}) to {@link Fires} on node 1, where the workloads run. A fire is stamped on the
 * node that delivered it, in that node's observer, so its lateness is measured as on one node; only
 * the count and the stamp travel, one line per fire ({@code id atMicros}) over one loopback TCP
 * connection per node. TCP rather than datagrams: a burst of thousands would overflow a socket's
 * receive buffer and lose fires that were delivered.
 */
final class FireRelay {

  private static final Logger LOG = Logger.getLogger(FireRelay.class.getName());
  private static final String STOP = "";

  private FireRelay() {}

  /** Node 1's end: accepts the other nodes' connections and records what they send. */
  static final class Collector implements AutoCloseable {
    private final ServerSocket server;
    private final List<Socket> peers = new ArrayList<>();

    Collector(ThreadFactory threads) throws IOException {
      server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
      threads.newThread(() -> accept(threads)).start();
    }

    int port() {
      return server.getLocalPort();
    }

    private void accept(ThreadFactory threads) {
      while (!server.isClosed()) {
        try {
          Socket peer = server.accept();
          synchronized (peers) {
            peers.add(peer);
          }
          threads.newThread(() -> read(peer)).start();
        } catch (IOException e) {
          if (!server.isClosed()) {
            LOG.log(Level.WARNING, "fire relay: accept failed", e);
          }
        }
      }
    }

    private static void read(Socket peer) {
      try (BufferedReader in =
          new BufferedReader(
              new InputStreamReader(peer.getInputStream(), StandardCharsets.US_ASCII))) {
        for (String line; (line = in.readLine()) != null; ) {
          int space = line.indexOf(' ');
          Fires.fired(line.substring(0, space), Long.parseLong(line, space + 1, line.length(), 10));
        }
      } catch (IOException e) {
        LOG.log(Level.FINE, "fire relay: a peer went away", e);
      }
    }

    @Override
    public void close() {
      try {
        server.close();
        synchronized (peers) {
          for (Socket peer : peers) {
            peer.close();
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * Another node's end: the observer only queues the stamped fire; one thread writes the queue to
   * node 1 and flushes whenever it has caught up, so a burst travels in large writes.
   */
  static final class Forwarder implements AutoCloseable {
    private final BlockingQueue<String> queue = new LinkedBlockingQueue<>();
    private final Socket socket;

    Forwarder(int port, ThreadFactory threads) throws IOException {
      socket = new Socket(InetAddress.getLoopbackAddress(), port);
      socket.setTcpNoDelay(true);
      threads.newThread(this::send).start();
    }

    void fired(String id, long atMicros) {
      queue.add(id + ' ' + atMicros);
    }

    private void send() {
      try (BufferedWriter out =
          new BufferedWriter(
              new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.US_ASCII))) {
        while (true) {
          String line = queue.take();
          if (line == STOP) {
            return;
          }
          out.write(line);
          out.write('\n');
          if (queue.isEmpty()) {
            out.flush();
          }
        }
      } catch (IOException e) {
        LOG.log(Level.WARNING, "fire relay: node 1 went away", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void close() {
      queue.add(STOP);
    }
  }
}
