package io.belfry.reminders.sink;

import io.belfry.reminders.api.ReminderFired;
import io.netty.util.concurrent.FastThreadLocal;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.jboss.logging.Logger;

/**
 * Forwards a fire to a queue or topic of an external ActiveMQ Artemis broker, with the Artemis
 * Jakarta Messaging client bundled in the application (what WildFly's {@code remote-activemq} layer
 * would provide, which cannot be provisioned from Maven Central: docs/sinks.md). One {@link
 * TextMessage} per fire: the body is exactly the webhook's JSON body ({@link FireJson}), the String
 * properties {@value #FENCE}, {@value #ATTEMPT}, {@value #NAMESPACE} and {@value #KEY} repeat the
 * fields a consumer filters or de-duplicates on, and the delivery is persistent, so the send
 * returns only once the broker has accepted (and, with its journal, stored) the message. A failure
 * throws {@link SinkException}; there is no retry here, the reminder's delivery mode decides.
 *
 * <p><b>Connections.</b> Opening a connection costs a TCP connect and a few round trips; a fire
 * should cost one round trip. So each broker ({@link Endpoint}: URL, credentials and timeout) has
 * one connection factory and one cached {@link JMSContext} (one connection, one session), made at
 * its first fire and kept. A {@code JMSContext} must not be used by two threads at once (Jakarta
 * Messaging 3.1, section 6.2.5), so sends to one broker are serialised by a lock; a thread that
 * cannot get it within the timeout fails its fire, as a slow broker would. This caps one node at
 * one send in flight per broker (a persistent send to a broker on the same network takes about a
 * millisecond); a pool of contexts would lift that cap and is not needed yet. The context is
 * discarded and made again at the next fire when a send fails, or when the client reports the
 * connection lost (an {@link jakarta.jms.ExceptionListener}): a broker that restarted between two
 * fires costs the next fire nothing, and a fire is never sent twice by this class.
 *
 * <p><b>Timeouts.</b> The sink's {@code timeout} bounds connecting (the Netty connect timeout) and
 * each blocking call to the broker (Artemis' {@code callTimeout}: session creation, the persistent
 * send). The client makes one connection attempt and does not reconnect on its own ({@code
 * initialConnectAttempts=1}, {@code reconnectAttempts=0}): a broker that is down fails the fire at
 * once.
 */
public class JmsSink implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(JmsSink.class);

  /** Message property: the fence of the fire (its version), as a decimal String. */
  public static final String FENCE = "BelfryFence";

  /** Message property: the delivery attempt, from 1, as a decimal String. */
  public static final String ATTEMPT = "BelfryAttempt";

  /** Message property: the namespace. */
  public static final String NAMESPACE = "BelfryNamespace";

  /** Message property: the reminder's key. */
  public static final String KEY = "BelfryKey";

  /** What identifies one connection: a change of any part opens another. */
  record Endpoint(String url, String user, String password, Duration timeout) {
    static Endpoint of(SinkSettings sink) {
      return new Endpoint(sink.jmsUrl(), sink.jmsUser(), sink.jmsPassword(), sink.timeout());
    }

    /** The origin only, without the password: neither must reach a log. */
    @Override
    public String toString() {
      return SinkTargets.origin(url) + (user == null ? "" : " as " + user);
    }
  }

  private final Map<Endpoint, Broker> brokers = new ConcurrentHashMap<>();

  private volatile boolean closed;

  /**
   * Sends {@code fire} to the destination of {@code sink} and returns once the broker accepted it.
   *
   * @throws SinkException if the broker cannot be reached, refuses the message, or does not answer
   *     within the timeout
   */
  public void send(SinkSettings sink, ReminderFired fire) {
    if (closed) {
      throw new SinkException(
          "broker " + SinkTargets.origin(sink.jmsUrl()) + ": the application is stopping");
    }
    try {
      brokers.computeIfAbsent(Endpoint.of(sink), Broker::new).send(sink, fire);
    } finally {
      // Netty, under the Artemis client, leaves a thread-local map on the calling thread: a
      // server-wide delivery thread that outlives this deployment, whose class loader the map's
      // classes would then keep in memory after an undeploy.
      FastThreadLocal.removeAll();
    }
  }

  /** Closes every connection and the client's thread pools (at undeployment). */
  @Override
  public void close() {
    closed = true;
    brokers.values().forEach(Broker::close);
    brokers.clear();
    // the Artemis client's static pools live in this application's class loader: stop them with it
    ActiveMQClient.clearThreadPools();
  }

  /** One broker: its factory, and the cached context guarded by {@link #lock}. */
  private static final class Broker {

    private final Endpoint endpoint;
    private final ActiveMQConnectionFactory factory;
    private final ReentrantLock lock = new ReentrantLock();

    /** Guarded by {@link #lock}. */
    private JMSContext context;

    /** Set by the client's thread when the connection is lost; the context it belongs to. */
    private volatile JMSContext lost;

    Broker(Endpoint endpoint) {
      this.endpoint = endpoint;
      long millis = Math.max(1, endpoint.timeout().toMillis());
      this.factory =
          new ActiveMQConnectionFactory(
              endpoint.url() + "?" + TransportConstants.NETTY_CONNECT_TIMEOUT + "=" + millis);
      factory.setCallTimeout(millis);
      factory.setCallFailoverTimeout(millis);
      factory.setInitialConnectAttempts(1);
      factory.setReconnectAttempts(0);
    }

    void send(SinkSettings sink, ReminderFired fire) {
      Duration timeout = endpoint.timeout();
      try {
        if (!lock.tryLock(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
          throw new SinkException(
              "broker "
                  + SinkTargets.origin(endpoint.url())
                  + " timed out after "
                  + timeout
                  + " (waiting for an earlier send to it)");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SinkException("broker " + SinkTargets.origin(endpoint.url()) + " interrupted", e);
      }
      try {
        JMSContext ctx = context();
        Destination destination =
            sink.jmsTopic()
                ? ctx.createTopic(sink.jmsDestinationName())
                : ctx.createQueue(sink.jmsDestinationName());
        TextMessage message = ctx.createTextMessage(FireJson.of(fire).toString());
        message.setStringProperty(FENCE, Long.toString(fire.getFence()));
        message.setStringProperty(ATTEMPT, Integer.toString(fire.getAttempt()));
        message.setStringProperty(NAMESPACE, fire.getNamespace());
        message.setStringProperty(KEY, fire.getKey());
        ctx.createProducer().setDeliveryMode(DeliveryMode.PERSISTENT).send(destination, message);
      } catch (JMSRuntimeException | JMSException e) {
        discard();
        throw new SinkException(
            "broker "
                + SinkTargets.origin(endpoint.url())
                + " failed to take the fire for "
                + sink.jmsDestination()
                + ": "
                + describe(e),
            e);
      } finally {
        lock.unlock();
      }
    }

    /** The cached context, or a new one if there is none or its connection was lost. */
    private JMSContext context() {
      if (context != null && lost == context) {
        LOG.infof(
            "BELFRY-0431 The connection to broker %s was lost; reconnecting for this fire",
            endpoint);
        discard();
      }
      if (context == null) {
        JMSContext made =
            endpoint.user() == null
                ? factory.createContext(JMSContext.AUTO_ACKNOWLEDGE)
                : factory.createContext(
                    endpoint.user(), endpoint.password(), JMSContext.AUTO_ACKNOWLEDGE);
        try {
          made.setExceptionListener(e -> lost = made);
        } catch (JMSRuntimeException e) {
          made.close();
          throw e;
        }
        context = made;
        LOG.debugf("BELFRY-0430 Connected to broker %s", endpoint);
      }
      return context;
    }

    /** Closes the cached context (under {@link #lock}, or at close); the next send makes one. */
    private void discard() {
      JMSContext old = context;
      context = null;
      if (old != null) {
        try {
          old.close();
        } catch (JMSRuntimeException e) {
          LOG.debugf("BELFRY-0432 Closing the connection to broker %s: %s", endpoint, e);
        }
      }
    }

    void close() {
      lock.lock();
      try {
        discard();
        factory.close();
      } finally {
        lock.unlock();
      }
    }
  }

  private static String describe(Exception e) {
    Throwable cause = e;
    String message = e.getMessage();
    while (message == null && cause.getCause() != null) {
      cause = cause.getCause();
      message = cause.getMessage();
    }
    return message == null ? e.getClass().getSimpleName() : message;
  }
}
