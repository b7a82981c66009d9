package io.belfry.cluster;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.jgroups.Address;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.protocols.TCP;
import org.jgroups.stack.Protocol;
import org.jgroups.stack.ProtocolStack;
import org.jgroups.util.MessageBatch;
import org.jgroups.util.UUID;

/**
 * A process that reaches the cluster's JGroups port without the cluster's key: a JGroups member in
 * this JVM with the stack of {@code configure-jgroups.cli} (TCP, TCPPING to the real nodes, MERGE3,
 * GMS), the same cluster name as WildFly's {@code ee} channel, and either another cluster's key
 * (SYM_ENCRYPT and SERIALIZE as on the nodes) or no encryption at all. It records every view it is
 * given and, through a tap right above TCP, every byte that reaches it, in clear or not.
 */
final class Intruder implements AutoCloseable {

  /** The cluster WildFly's {@code ee} channel joins (its {@code cluster} attribute). */
  static final String CLUSTER = "ejb";

  private final JChannel channel;
  private final Tap tap = new Tap();
  private final List<View> views = new CopyOnWriteArrayList<>();

  /** Low bits of the next keyed intruder's address, see {@link #withKey}. */
  private static final AtomicLong KEYED_ADDRESSES = new AtomicLong();

  private Intruder(String name, String config, boolean lowestAddress) {
    try {
      channel = new JChannel(new ByteArrayInputStream(config.getBytes(StandardCharsets.UTF_8)));
      channel.setName(name);
      if (lowestAddress) {
        channel.addAddressGenerator(
            () -> new UUID(Long.MIN_VALUE, KEYED_ADDRESSES.incrementAndGet()));
      }
      channel.getProtocolStack().insertProtocol(tap, ProtocolStack.Position.ABOVE, TCP.class);
      channel.setReceiver(
          new Receiver() {
            @Override
            public void viewAccepted(View view) {
              views.add(view);
            }
          });
      channel.connect(CLUSTER);
    } catch (Exception e) {
      throw new IllegalStateException("intruder " + name + " did not start", e);
    }
  }

  /**
   * Encrypts as the nodes do, with the key of {@code keyProperties} (another cluster's). Its
   * address sorts below any random one, so the keyed intruders' coordinator is always the lowest
   * coordinator MERGE3 hears of and leads their merge. With random addresses, a node's coordinator
   * was the lowest about one time in three: it led the merge, the intruders could not read its
   * requests, and the two never formed their view (CI, 2026-11-29).
   */
  static Intruder withKey(String name, int port, String hosts, Path keyProperties) {
    Properties key = new Properties();
    try {
      key.load(Files.newBufferedReader(keyProperties));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String encryption =
        """
        <SYM_ENCRYPT keystore_name="%s" keystore_type="PKCS12" store_password="%s"
                     key_password="%s" alias="belfry-cluster"
                     sym_algorithm="AES/CBC/PKCS5Padding" sym_iv_length="16"/>
        <SERIALIZE/>
        """
            .formatted(
                key.getProperty("belfry.cluster.key-store"),
                key.getProperty("belfry.cluster.key-password"),
                key.getProperty("belfry.cluster.key-password"));
    return new Intruder(name, config(port, hosts, encryption), true);
  }

  /** Sends and expects everything in clear, as the nodes did before they were encrypted. */
  static Intruder withoutKey(String name, int port, String hosts) {
    return new Intruder(name, config(port, hosts, ""), false);
  }

  private static String config(int port, String hosts, String encryption) {
    return """
        <config xmlns="urn:org:jgroups">
          <TCP bind_addr="127.0.0.1" bind_port="%d" port_range="0" tcp_nodelay="true"
               bundler_type="transfer-queue"/>
          <RED/>
          <TCPPING initial_hosts="%s" port_range="0"/>
          <MERGE3 min_interval="2000" max_interval="5000"/>
          <FD_ALL3 timeout="5000" interval="1000"/>
          <VERIFY_SUSPECT2 timeout="500"/>
          %s
          <pbcast.NAKACK2 use_mcast_xmit="false"/>
          <UNICAST3/>
          <pbcast.STABLE/>
          <pbcast.GMS join_timeout="1000" max_join_attempts="3" print_local_addr="false"/>
          <FRAG4/>
        </config>
        """
        .formatted(port, hosts, encryption);
  }

  /** Every view this member was given, first to last. */
  List<View> views() {
    return List.copyOf(views);
  }

  /** The members of its current view, by name. */
  List<String> members() {
    return channel.getView().getMembers().stream().map(Address::toString).toList();
  }

  /** The names of the members its discovery heard of (the real nodes answer discovery too). */
  String discovered() {
    return channel.getProtocolStack().getTransport().printLogicalAddressCache();
  }

  /**
   * How many messages reached it from {@code sender}, whatever they held (a node's address reads
   * "node1(v=16.0.5)": its name, then Infinispan's tag).
   */
  long messagesFrom(String sender) {
    return tap.from.entrySet().stream()
        .filter(e -> String.valueOf(e.getKey()).startsWith(sender))
        .mapToLong(e -> e.getValue().get())
        .sum();
  }

  /** Whether {@code text} (UTF-8) was in any message that reached it. */
  boolean received(String text) {
    return tap.seen(text.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void close() {
    channel.close();
  }

  /** Right above the transport: sees every message as it came off the wire, before decryption. */
  static final class Tap extends Protocol {
    final ConcurrentHashMap<Address, AtomicLong> from = new ConcurrentHashMap<>();
    private final List<byte[]> payloads = new CopyOnWriteArrayList<>();

    @Override
    public Object up(Message msg) {
      record(msg);
      return up_prot.up(msg);
    }

    @Override
    public void up(MessageBatch batch) {
      for (Message msg : batch) {
        record(msg);
      }
      up_prot.up(batch);
    }

    private void record(Message msg) {
      if (msg.getSrc() != null) {
        from.computeIfAbsent(msg.getSrc(), a -> new AtomicLong()).incrementAndGet();
      }
      if (msg.hasArray() && msg.getLength() > 0) {
        payloads.add(
            Arrays.copyOfRange(msg.getArray(), msg.getOffset(), msg.getOffset() + msg.getLength()));
      }
    }

    boolean seen(byte[] needle) {
      return payloads.stream().anyMatch(p -> indexOf(p, needle) >= 0);
    }

    private static int indexOf(byte[] hay, byte[] needle) {
      outer:
      for (int i = 0; i + needle.length <= hay.length; i++) {
        for (int j = 0; j < needle.length; j++) {
          if (hay[i + j] != needle[j]) {
            continue outer;
          }
        }
        return i;
      }
      return -1;
    }
  }
}
