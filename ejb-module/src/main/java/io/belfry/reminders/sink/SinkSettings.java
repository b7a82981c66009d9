package io.belfry.reminders.sink;

import io.belfry.reminders.api.validation.DurationRange;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Duration;

/**
 * Where the fires of one namespace are forwarded besides its CDI observers: an HTTP webhook that
 * gets every fire as a signed JSON {@code POST} ({@link WebhookSink}), a queue or topic of an
 * external ActiveMQ Artemis broker that gets it as a Jakarta Messaging text message ({@link
 * JmsSink}), or both. {@link CompleteSink} checks the rules across fields.
 *
 * <p>The field names are the REST body's ({@code PUT /namespaces/{namespace}/sink}) and the
 * console's; Bean Validation reports each violation on its field.
 *
 * @param webhookUrl absolute {@code http} or {@code https} URL that receives the fires
 * @param secret key of the HMAC-SHA256 signature of every body ({@value #MIN_SECRET} to {@value
 *     #MAX_SECRET} characters); never shown back by the API or the console
 * @param timeout how long one delivery to each sink may take, connection included, before it counts
 *     as failed
 * @param jmsUrl {@code tcp://host:port} of an ActiveMQ Artemis broker ({@link JmsUrl}), or {@code
 *     null} for no Jakarta Messaging sink
 * @param jmsDestination {@code queue:NAME} or {@code topic:NAME}, required with a {@code jmsUrl}
 * @param jmsUser user to connect as, or {@code null} to connect without credentials
 * @param jmsPassword password of {@code jmsUser}; never shown back by the API or the console
 */
@CompleteSink
public record SinkSettings(
    @WebhookUrl String webhookUrl,
    @Size(
            min = MIN_SECRET,
            max = MAX_SECRET,
            message = "must be " + MIN_SECRET + " to " + MAX_SECRET + " characters")
        String secret,
    @NotNull(message = "is required")
        @DurationRange(
            min = "PT0.1S",
            max = "PT30S",
            message = "must be between 100 milliseconds (PT0.1S) and 30 seconds (PT30S)")
        Duration timeout,
    @JmsUrl String jmsUrl,
    @Size(max = MAX_DESTINATION, message = "must be at most " + MAX_DESTINATION + " characters")
        @Pattern(
            regexp = DESTINATION_PATTERN,
            message = "must be queue:NAME or topic:NAME (NAME of letters, digits and . _ - / :)")
        String jmsDestination,
    @Size(min = 1, max = MAX_JMS_CREDENTIAL, message = "must be 1 to 255 characters")
        String jmsUser,
    @Size(min = 1, max = MAX_JMS_CREDENTIAL, message = "must be 1 to 255 characters")
        String jmsPassword) {

  /** Shortest secret: 16 characters, 128 bits if random letters and digits are not assumed. */
  public static final int MIN_SECRET = 16;

  public static final int MAX_SECRET = 256;

  /** Timeout when none is given. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  /** Longest accepted URL. */
  public static final int MAX_URL = 2048;

  /** Longest destination, {@code queue:} or {@code topic:} included. */
  public static final int MAX_DESTINATION = 255;

  public static final int MAX_JMS_CREDENTIAL = 255;

  /**
   * {@code queue:NAME} or {@code topic:NAME}. NAME is what Artemis calls the address and queue (the
   * Jakarta Messaging name); the characters are restricted so that a name never needs quoting in
   * the broker's configuration or CLI.
   */
  public static final String DESTINATION_PATTERN = "(queue|topic):[A-Za-z0-9._\\-/:]+";

  /**
   * A webhook sink only (no Jakarta Messaging). A factory, not a second constructor: Vaadin's
   * {@code Binder.writeRecord} (the console) takes the first constructor it finds.
   */
  public static SinkSettings webhook(String url, String secret, Duration timeout) {
    return new SinkSettings(url, secret, timeout, null, null, null, null);
  }

  /** A webhook with the {@link #DEFAULT_TIMEOUT}. */
  public static SinkSettings webhook(String url, String secret) {
    return webhook(url, secret, DEFAULT_TIMEOUT);
  }

  /** A Jakarta Messaging sink without credentials, with the {@link #DEFAULT_TIMEOUT}. */
  public static SinkSettings jms(String url, String destination) {
    return new SinkSettings(null, null, DEFAULT_TIMEOUT, url, destination, null, null);
  }

  public SinkSettings withTimeout(Duration newTimeout) {
    return new SinkSettings(
        webhookUrl, secret, newTimeout, jmsUrl, jmsDestination, jmsUser, jmsPassword);
  }

  public SinkSettings withSecret(String newSecret) {
    return new SinkSettings(
        webhookUrl, newSecret, timeout, jmsUrl, jmsDestination, jmsUser, jmsPassword);
  }

  public SinkSettings withJms(String url, String destination, String user, String password) {
    return new SinkSettings(webhookUrl, secret, timeout, url, destination, user, password);
  }

  public SinkSettings withJmsPassword(String newPassword) {
    return new SinkSettings(
        webhookUrl, secret, timeout, jmsUrl, jmsDestination, jmsUser, newPassword);
  }

  public boolean hasWebhook() {
    return webhookUrl != null;
  }

  public boolean hasJms() {
    return jmsUrl != null;
  }

  /** Whether {@link #jmsDestination} names a topic (otherwise a queue). */
  public boolean jmsTopic() {
    return jmsDestination != null && jmsDestination.startsWith("topic:");
  }

  /** {@link #jmsDestination} without its {@code queue:} or {@code topic:} prefix. */
  public String jmsDestinationName() {
    return jmsDestination == null
        ? null
        : jmsDestination.substring(jmsDestination.indexOf(':') + 1);
  }

  /** Without the secret and the password, which must not reach a log. */
  @Override
  public String toString() {
    return "SinkSettings[webhookUrl="
        + webhookUrl
        + ", secret="
        + (secret == null ? "none" : "***")
        + ", timeout="
        + timeout
        + ", jmsUrl="
        + jmsUrl
        + ", jmsDestination="
        + jmsDestination
        + ", jmsUser="
        + jmsUser
        + ", jmsPassword="
        + (jmsPassword == null ? "none" : "***")
        + "]";
  }
}
