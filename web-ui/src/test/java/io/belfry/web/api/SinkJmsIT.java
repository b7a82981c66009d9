package io.belfry.web.api;

import static io.belfry.web.api.ApiClient.segment;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.sink.EmbeddedBroker;
import io.belfry.reminders.sink.JmsSink;
import io.belfry.web.api.ApiClient.Answer;
import io.belfry.web.foundation.Deployments;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code default} namespace's Jakarta Messaging sink, end to end: an ActiveMQ Artemis broker in
 * this test JVM on a free loopback port, the sink configured through the REST API, real fires of
 * the deployed WAR (whose bundled Artemis client connects to the broker), consumed from the queue
 * here.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class SinkJmsIT {

  private static final String SINK = "/namespaces/default/sink";
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.belfryWar();
  }

  @ArquillianResource URL base;

  private ApiClient api;
  private EmbeddedBroker broker;
  private String prefix;
  private String queue;

  @BeforeEach
  void start() throws Exception {
    api = new ApiClient(base);
    prefix = "jms-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    queue = "belfry.it." + prefix;
    broker = new EmbeddedBroker();
  }

  @AfterEach
  void stop() throws Exception {
    // the server outlives this class: leave namespace default without a sink for the other ITs
    api.delete(SINK);
    broker.close();
  }

  private void configure() {
    Answer configured =
        api.put(
            SINK,
            "{\"jmsUrl\": \""
                + broker.url()
                + "\", \"jmsDestination\": \"queue:"
                + queue
                + "\", \"timeout\": \"PT2S\"}");
    assertThat(configured.status()).as(configured.body()).isIn(200, 201);
    assertThat(configured.json().getString("jmsUrl")).isEqualTo(broker.url());
    assertThat(configured.json().getString("jmsDestination")).isEqualTo("queue:" + queue);
    assertThat(configured.json().isNull("webhookUrl")).isTrue();
    assertThat(configured.json().getBoolean("hasJmsPassword")).isFalse();
  }

  /** This test's messages from the queue, until {@code count} arrived or the wait is over. */
  private List<Message> consume(int count) throws JMSException {
    List<Message> mine = new ArrayList<>();
    try (var factory = new ActiveMQConnectionFactory(broker.url());
        JMSContext context = factory.createContext();
        JMSConsumer consumer = context.createConsumer(context.createQueue(queue))) {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (mine.size() < count && System.nanoTime() < deadline) {
        Message message = consumer.receive(500);
        if (message != null && message.getStringProperty(JmsSink.KEY).startsWith(prefix)) {
          mine.add(message);
        }
      }
      // anything more would be a duplicate: give it a moment to show up
      Message extra = consumer.receive(1_000);
      while (extra != null) {
        if (extra.getStringProperty(JmsSink.KEY).startsWith(prefix)) {
          mine.add(extra);
        }
        extra = consumer.receive(200);
      }
    }
    return mine;
  }

  private static JsonObject body(Message message) throws JMSException {
    try (var reader = Json.createReader(new StringReader(((TextMessage) message).getText()))) {
      return reader.readObject();
    }
  }

  @Test
  void jms_eachFireArrivesOnce_fencedWithTheVersion() throws Exception {
    broker.start();
    configure();

    int count = 6;
    Map<String, Long> versions = api.setCounted(prefix, count);

    List<Message> received = consume(count);

    assertThat(received).as("one message per fire, no duplicates").hasSize(count);
    for (Message message : received) {
      JsonObject body = body(message);
      String key = message.getStringProperty(JmsSink.KEY);
      assertThat(body.getString("key")).isEqualTo(key);
      assertThat(versions).containsKey(key);
      assertThat(Long.parseLong(message.getStringProperty(JmsSink.FENCE)))
          .isEqualTo(versions.get(key));
      assertThat(body.getJsonNumber("fence").longValue()).isEqualTo(versions.get(key));
      assertThat(message.getStringProperty(JmsSink.ATTEMPT)).isEqualTo("1");
      assertThat(message.getStringProperty(JmsSink.NAMESPACE)).isEqualTo("default");
      assertThat(body.getJsonObject("payload").getInt("i"))
          .isEqualTo(Integer.parseInt(key.substring(prefix.length())));
    }
    assertThat(received.stream().map(this::key).distinct()).hasSize(count);
    ApiClient.await(
        "the FIRED audit records",
        WAIT,
        () -> versions.keySet().stream().allMatch(k -> !api.audit(k, "FIRED").isEmpty()));
    for (String key : versions.keySet()) {
      assertThat(api.audit(key, "DELIVERY_FAILED")).isEmpty();
    }
  }

  private String key(Message message) {
    try {
      return message.getStringProperty(JmsSink.KEY);
    } catch (JMSException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void jms_brokerDownThenUp_atLeastOnce_retriedAndDeliveredWithSameFence() throws Exception {
    // the sink points at the broker's port while nothing listens there yet
    configure();
    String key = prefix + "late";
    Answer set =
        api.put(
            "/reminders/default/" + segment(key),
            "{\"delay\": \"PT1S\", \"delivery\": \"AT_LEAST_ONCE\"}");
    assertThat(set.status()).as(set.body()).isEqualTo(201);
    long version = set.json().getJsonNumber("version").longValue();

    ApiClient.await(
        "the first attempt to fail", WAIT, () -> !api.audit(key, "RETRY_SCHEDULED").isEmpty());
    assertThat(api.audit(key, "RETRY_SCHEDULED").get(0).getString("detail"))
        .contains("attempt 1 failed")
        .contains(broker.url());
    broker.start();

    List<Message> received = consume(1);
    assertThat(received).as("delivered once the broker is up, exactly once").hasSize(1);
    Message message = received.get(0);
    assertThat(Long.parseLong(message.getStringProperty(JmsSink.FENCE))).isEqualTo(version);
    assertThat(Integer.parseInt(message.getStringProperty(JmsSink.ATTEMPT)))
        .isGreaterThanOrEqualTo(2);
    assertThat(body(message).getInt("attempt"))
        .isEqualTo(Integer.parseInt(message.getStringProperty(JmsSink.ATTEMPT)));

    ApiClient.await(
        "the DELIVERED audit record", WAIT, () -> !api.audit(key, "DELIVERED").isEmpty());
    assertThat(api.audit(key, "DELIVERED"))
        .singleElement()
        .satisfies(
            d ->
                assertThat(d.getString("detail"))
                    .isEqualTo("attempt " + message.getStringProperty(JmsSink.ATTEMPT)));
    assertThat(api.audit(key, "DEAD_LETTERED")).isEmpty();
  }

  @Test
  void put_badJmsSettings_400NamingTheField_passwordNeverShown() {
    String namespace = "/namespaces/" + prefix + "ns/sink";
    Answer created =
        api.put(
            namespace,
            "{\"jmsUrl\": \"tcp://127.0.0.1:61616\", \"jmsDestination\": \"topic:t\","
                + " \"jmsUser\": \"belfry\", \"jmsPassword\": \"broker-password\"}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.json().getBoolean("hasJmsPassword")).isTrue();
    assertThat(created.body()).doesNotContain("broker-password");

    Map<String, String> bad =
        Map.of(
            "{\"jmsUrl\": \"http://127.0.0.1:61616\", \"jmsDestination\": \"queue:q\"}",
            "jmsUrl",
            "{\"jmsUrl\": \"tcp://127.0.0.1\", \"jmsDestination\": \"queue:q\"}",
            "jmsUrl",
            "{\"jmsUrl\": \"tcp://127.0.0.1:61616\", \"jmsDestination\": \"q\"}",
            "jmsDestination",
            "{\"jmsUrl\": \"tcp://127.0.0.1:61616\"}",
            "jmsDestination",
            "{\"jmsDestination\": \"queue:q\"}",
            "webhookUrl",
            "{\"jmsUrl\": \"tcp://127.0.0.1:61616\", \"jmsDestination\": \"queue:q\","
                + " \"jmsPassword\": \"p\"}",
            "jmsPassword",
            "{\"jmsUrl\": 61616, \"jmsDestination\": \"queue:q\"}",
            "jmsUrl");
    bad.forEach(
        (body, field) -> {
          Answer answer = api.put(namespace, body);
          assertThat(answer.status()).as(body + " -> " + answer.body()).isEqualTo(400);
          assertThat(answer.violationFields()).as(body).contains(field);
        });

    // without a password, a replacement with the same user keeps the stored one
    Answer kept =
        api.put(
            namespace,
            "{\"jmsUrl\": \"tcp://127.0.0.1:61617\", \"jmsDestination\": \"topic:t\","
                + " \"jmsUser\": \"belfry\"}");
    assertThat(kept.status()).as(kept.body()).isEqualTo(200);
    assertThat(kept.json().getBoolean("hasJmsPassword")).isTrue();
    assertThat(api.delete(namespace).status()).isEqualTo(204);
  }
}
