package io.belfry.reminders.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.InvalidReminderException.Violation;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SinkSettingsValidationTest {

  private static final String SECRET = "sixteen-chars-ok";

  private static ValidatorFactory factory;

  @BeforeAll
  static void start() {
    factory = Validation.buildDefaultValidatorFactory();
  }

  @AfterAll
  static void stop() {
    factory.close();
  }

  private static List<Violation> violations(SinkSettings settings) {
    var found = factory.getValidator().validate(settings);
    return found.isEmpty() ? List.of() : InvalidReminderException.from(found).getViolations();
  }

  @Test
  void validate_completeWebhook_noViolation() {
    assertThat(violations(SinkSettings.webhook("https://hooks.example.com/belfry?x=1", SECRET)))
        .isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ftp://example.com/x",
        "example.com/hook",
        "/hook",
        "http://user:pw@example.com/hook",
        "http://example.com/hook#part",
        "http:///nohost",
        "http://exa mple.com/"
      })
  void validate_badUrl_violationOnWebhookUrl(String url) {
    assertThat(violations(SinkSettings.webhook(url, SECRET)))
        .extracting(Violation::field)
        .containsExactly("webhookUrl");
  }

  @Test
  void validate_urlTooLong_violationOnWebhookUrl() {
    String url = "https://example.com/" + "a".repeat(SinkSettings.MAX_URL);
    assertThat(violations(SinkSettings.webhook(url, SECRET)))
        .containsExactly(new Violation("webhookUrl", "must be at most 2048 characters"));
  }

  @Test
  void validate_noUrl_violationOnWebhookUrl() {
    assertThat(violations(SinkSettings.webhook(null, SECRET, Duration.ofSeconds(1))))
        .extracting(Violation::field)
        .containsExactly("webhookUrl");
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "http://127.0.0.1:9/h",
        "http://localhost:8080/h",
        "http://10.1.2.3/h",
        "http://192.168.0.10/h",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]:8080/h",
        "http://[fd00::1]/h"
      })
  void validate_privateWebhookTarget_refusedByDefault_allowedWhenAnAdminSaysSo(String url) {
    assertThat(violations(SinkSettings.webhook(url, SECRET)))
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.field()).isEqualTo("webhookUrl");
              assertThat(v.message()).contains(PrivateTargets.PROPERTY + "=allow");
            });
    System.setProperty(PrivateTargets.PROPERTY, "allow");
    try {
      assertThat(violations(SinkSettings.webhook(url, SECRET))).isEmpty();
    } finally {
      System.clearProperty(PrivateTargets.PROPERTY);
    }
  }

  @Test
  void validate_noSecret_violationOnSecret() {
    assertThat(violations(SinkSettings.webhook("https://hooks.example.com/h", null)))
        .containsExactly(new Violation("secret", "is required with a webhookUrl"));
  }

  @Test
  void validate_shortSecret_violationOnSecret() {
    assertThat(violations(SinkSettings.webhook("https://hooks.example.com/h", "short")))
        .containsExactly(new Violation("secret", "must be 16 to 256 characters"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"PT0.099S", "PT30.001S", "PT0S", "-PT1S"})
  void validate_timeoutOutOfRange_violationOnTimeout(String timeout) {
    assertThat(
            violations(
                SinkSettings.webhook("https://hooks.example.com/h", SECRET)
                    .withTimeout(Duration.parse(timeout))))
        .extracting(Violation::field)
        .containsExactly("timeout");
  }

  @Test
  void validate_noTimeout_violationOnTimeout() {
    assertThat(violations(SinkSettings.webhook("https://hooks.example.com/h", SECRET, null)))
        .containsExactly(new Violation("timeout", "is required"));
  }

  @Test
  void validate_jmsOnly_noViolation() {
    assertThat(violations(SinkSettings.jms("tcp://127.0.0.1:61616", "queue:belfry.fires")))
        .isEmpty();
    assertThat(
            violations(
                SinkSettings.jms("tcp://broker.example.com:61616", "topic:a/b-c_d.e:f")
                    .withJms("tcp://broker.example.com:61616", "topic:x", "belfry", "pw")))
        .isEmpty();
  }

  @Test
  void validate_webhookAndJms_noViolation() {
    assertThat(
            violations(
                SinkSettings.webhook("https://hooks.example.com/b", SECRET)
                    .withJms("tcp://127.0.0.1:61616", "queue:q", null, null)))
        .isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.0.0.1:61616",
        "tcp://127.0.0.1",
        "tcp://127.0.0.1:0",
        "tcp://127.0.0.1:70000",
        "tcp://:61616",
        "tcp://u:p@127.0.0.1:61616",
        "tcp://127.0.0.1:61616?callTimeout=1",
        "tcp://127.0.0.1:61616/x",
        "tcp:127.0.0.1:61616",
        "127.0.0.1:61616"
      })
  void validate_badJmsUrl_violationOnJmsUrl(String url) {
    assertThat(violations(SinkSettings.jms(url, "queue:q")))
        .extracting(Violation::field)
        .containsExactly("jmsUrl");
  }

  @ParameterizedTest
  @ValueSource(strings = {"q", "queue:", "queues:q", "topic:a b", "queue:a*", "Queue:q"})
  void validate_badDestination_violationOnJmsDestination(String destination) {
    assertThat(violations(SinkSettings.jms("tcp://127.0.0.1:61616", destination)))
        .extracting(Violation::field)
        .containsExactly("jmsDestination");
  }

  @Test
  void validate_jmsUrlWithoutDestination_violationOnJmsDestination() {
    assertThat(violations(SinkSettings.jms("tcp://127.0.0.1:61616", null)))
        .containsExactly(new Violation("jmsDestination", "is required with a jmsUrl"));
  }

  @Test
  void validate_jmsFieldsWithoutJmsUrl_violationOnEachField() {
    assertThat(
            violations(
                SinkSettings.webhook("https://hooks.example.com/b", SECRET)
                    .withJms(null, "queue:q", "u", "p")))
        .extracting(Violation::field)
        .containsExactlyInAnyOrder("jmsDestination", "jmsUser", "jmsPassword");
  }

  @Test
  void validate_passwordWithoutUser_violationOnJmsPassword() {
    assertThat(
            violations(
                SinkSettings.jms("tcp://127.0.0.1:61616", "queue:q")
                    .withJms("tcp://127.0.0.1:61616", "queue:q", null, "pw")))
        .containsExactly(new Violation("jmsPassword", "is used only with a jmsUser"));
  }

  @Test
  void validate_secretWithoutWebhook_violationOnSecret() {
    assertThat(violations(SinkSettings.jms("tcp://127.0.0.1:61616", "queue:q").withSecret(SECRET)))
        .containsExactly(new Violation("secret", "is used only with a webhookUrl"));
  }

  @Test
  void toString_hidesTheJmsPassword() {
    assertThat(
            SinkSettings.jms("tcp://127.0.0.1:61616", "queue:q")
                .withJms("tcp://127.0.0.1:61616", "queue:q", "u", "hunter2-password")
                .toString())
        .doesNotContain("hunter2-password");
  }

  @Test
  void toString_hidesTheSecret() {
    assertThat(SinkSettings.webhook("https://hooks.example.com/h", SECRET).toString())
        .doesNotContain(SECRET)
        .contains("***");
  }
}
