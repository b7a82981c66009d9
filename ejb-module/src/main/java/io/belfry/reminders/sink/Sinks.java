package io.belfry.reminders.sink;

import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.archive.NodeArchive;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * Forwards each fire to its namespace's sinks, after the CDI observers (see {@code CdiDelivery}).
 * The configuration comes from the {@link SinkDirectory} of the audit module, this deployment's own
 * or, for a deployment without it, the node's ({@link NodeArchive}).
 *
 * <p>The webhook goes first, then the broker; a failure of either fails the delivery (so under
 * at-least-once a retry calls both again, and receivers de-duplicate on the fence). The Jakarta
 * Messaging sink is the only code that touches {@code jakarta.jms} and the Artemis client: {@link
 * JmsSink} is loaded at the first fire of a namespace that has a broker, so an application that
 * bundles neither still deploys and forwards to webhooks; such a fire then fails with a {@link
 * SinkException} that says what is missing.
 */
@ApplicationScoped
public class Sinks {

  /** The audit module's, when it is deployed alongside; otherwise there are no sinks. */
  @Inject Instance<SinkDirectory> directories;

  /** Where a deployment without the audit module reads its namespaces' sinks. */
  @Inject NodeArchive nodeArchive;

  /** Made at the first webhook call: a deployment without one never starts an HTTP client. */
  private volatile WebhookSink webhook;

  /** Made at the first broker call (see the class comment). */
  private volatile JmsSink jms;

  /**
   * Sends {@code fire} to every sink of its namespace, in turn, and returns once each accepted it.
   *
   * @throws SinkException if one refused it, timed out, or the configuration cannot be read
   */
  public void forward(ReminderFired fire) {
    // this deployment's own directory when it bundles the audit module, else the node's
    Optional<SinkSettings> sink =
        directories.isResolvable()
            ? directories.get().forNamespace(fire.getNamespace())
            : nodeArchive.sinkFor(fire.getNamespace());
    if (sink.isEmpty()) {
      return;
    }
    if (sink.get().hasWebhook()) {
      webhook().send(sink.get(), fire);
    }
    if (sink.get().hasJms()) {
      try {
        jms().send(sink.get(), fire);
      } catch (LinkageError e) {
        throw new SinkException(
            "a jmsUrl is configured but this deployment has no Jakarta Messaging client (bundle"
                + " org.apache.activemq:artemis-jakarta-client and jakarta.jms:jakarta.jms-api): "
                + e,
            e);
      }
    }
  }

  @PreDestroy
  void close() {
    JmsSink made = jms;
    if (made != null) {
      made.close();
    }
  }

  private JmsSink jms() {
    JmsSink made = jms;
    if (made == null) {
      synchronized (this) {
        made = jms;
        if (made == null) {
          made = new JmsSink();
          jms = made;
        }
      }
    }
    return made;
  }

  private WebhookSink webhook() {
    WebhookSink made = webhook;
    if (made == null) {
      synchronized (this) {
        made = webhook;
        if (made == null) {
          made = new WebhookSink();
          webhook = made;
        }
      }
    }
    return made;
  }
}
