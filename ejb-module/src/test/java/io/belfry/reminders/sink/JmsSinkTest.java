package io.belfry.reminders.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.api.ReminderFired;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link JmsSink} against a real ActiveMQ Artemis broker in this JVM, on loopback TCP. */
class JmsSinkTest {

  private static final long RECEIVE_MS = 5_000;

  private EmbeddedBroker broker;
  private ActiveMQConnectionFactory consumerFactory;
  private JMSContext consumerContext;
  private final JmsSink sink = new JmsSink();

  @BeforeEach
  void startBroker() throws Exception {
    broker = new EmbeddedBroker().start();
    consumerFactory = new ActiveMQConnectionFactory(broker.url());
    consumerContext = consumerFactory.createContext();
  }

  @AfterEach
  void stopBroker() throws Exception {
    consumerContext.close();
    consumerFactory.close();
    // last: it stops the Artemis client's thread pools, which the consumer shares in this JVM
    sink.close();
    broker.close();
  }

  private static ReminderFired fire(String key, long fence, int attempt) {
    return new ReminderFired(
        "shop",
        key,
        "{\"order\":42}".getBytes(StandardCharsets.UTF_8),
        "application/json",
        fence,
        Instant.parse("2026-11-21T09:00:00Z"),
        Instant.parse("2026-11-21T09:00:00.012Z"),
        3,
        attempt);
  }

  @Test
  void send_queue_consumerGetsTheWebhookBodyAndProperties() throws JMSException {
    ReminderFired fire = fire("cart-42/ü", 123_456_789L, 2);
    sink.send(SinkSettings.jms(broker.url(), "queue:belfry.fires"), fire);

    try (JMSConsumer consumer =
        consumerContext.createConsumer(consumerContext.createQueue("belfry.fires"))) {
      Message message = consumer.receive(RECEIVE_MS);
      assertThat(message).isInstanceOf(TextMessage.class);
      assertThat(((TextMessage) message).getText())
          .isEqualTo(new String(FireJson.bytes(fire), StandardCharsets.UTF_8));
      assertThat(message.getStringProperty(JmsSink.FENCE)).isEqualTo("123456789");
      assertThat(message.getStringProperty(JmsSink.ATTEMPT)).isEqualTo("2");
      assertThat(message.getStringProperty(JmsSink.NAMESPACE)).isEqualTo("shop");
      assertThat(message.getStringProperty(JmsSink.KEY)).isEqualTo("cart-42/ü");
      assertThat(message.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
      assertThat(consumer.receiveNoWait()).as("exactly one message").isNull();
    }
  }

  @Test
  void send_manyFires_oneConnectionServesThemInOrder() throws JMSException {
    SinkSettings settings = SinkSettings.jms(broker.url(), "queue:many");
    for (int i = 1; i <= 50; i++) {
      sink.send(settings, fire("k" + i, i, 1));
    }
    try (JMSConsumer consumer =
        consumerContext.createConsumer(consumerContext.createQueue("many"))) {
      for (int i = 1; i <= 50; i++) {
        Message message = consumer.receive(RECEIVE_MS);
        assertThat(message).as("message %d", i).isNotNull();
        assertThat(message.getStringProperty(JmsSink.FENCE)).isEqualTo(Integer.toString(i));
      }
      assertThat(consumer.receiveNoWait()).isNull();
    }
    // the broker counts connections: the consumer's and one of the sink's
    assertThat(broker.connectionCount()).isEqualTo(2);
  }

  @Test
  void send_topic_subscriberGetsIt() throws JMSException {
    try (JMSConsumer subscriber =
        consumerContext.createConsumer(consumerContext.createTopic("belfry.events"))) {
      sink.send(SinkSettings.jms(broker.url(), "topic:belfry.events"), fire("t", 7L, 1));
      Message message = subscriber.receive(RECEIVE_MS);
      assertThat(message).isNotNull();
      assertThat(message.getStringProperty(JmsSink.FENCE)).isEqualTo("7");
      assertThat(message.getJMSDestination().toString()).contains("belfry.events");
    }
  }

  @Test
  void send_brokerStopped_throwsWithinTimeout_thenReconnectsWhenItIsBack() throws Exception {
    SinkSettings settings =
        SinkSettings.jms(broker.url(), "queue:restart").withTimeout(Duration.ofSeconds(1));
    sink.send(settings, fire("before", 1L, 1));
    consumerContext.close();
    broker.stop();

    long started = System.nanoTime();
    assertThatThrownBy(() -> sink.send(settings, fire("while-down", 2L, 1)))
        .isInstanceOf(SinkException.class)
        .hasMessageContaining("broker " + broker.url());
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .as("fails within the 1 s timeout (and some slack for a busy machine)")
        .isLessThan(Duration.ofSeconds(3));

    broker.start();
    sink.send(settings, fire("after", 3L, 1));
    consumerContext = consumerFactory.createContext();
    try (JMSConsumer consumer =
        consumerContext.createConsumer(consumerContext.createQueue("restart"))) {
      Message message = consumer.receive(RECEIVE_MS);
      assertThat(message)
          .as("sent after the restart (no persistence: the first is gone)")
          .isNotNull();
      assertThat(message.getStringProperty(JmsSink.KEY)).isEqualTo("after");
      assertThat(consumer.receiveNoWait()).isNull();
    }
  }

  @Test
  void send_nothingListens_throwsAtOnce() throws Exception {
    String url = broker.url();
    broker.stop();
    long started = System.nanoTime();
    assertThatThrownBy(() -> sink.send(SinkSettings.jms(url, "queue:q"), fire("x", 1L, 1)))
        .isInstanceOf(SinkException.class)
        .hasMessageContaining("queue:q");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void close_thenSend_throws() {
    JmsSink closed = new JmsSink();
    closed.close();
    assertThatThrownBy(
            () -> closed.send(SinkSettings.jms(broker.url(), "queue:q"), fire("x", 1L, 1)))
        .isInstanceOf(SinkException.class)
        .hasMessageContaining("stopping");
  }
}
