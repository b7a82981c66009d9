package io.belfry.reminders.sink;

import io.belfry.reminders.api.ReminderFired;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Forwards a fire to an HTTP webhook: one {@code POST} of {@link FireJson} with the headers below,
 * answered by a {@code 2xx} within the sink's timeout, or the delivery fails with a {@link
 * SinkException}. Redirects are not followed (a {@code 3xx} is a failure: configure the final URL).
 * There is no retry here: a failure is the delivery's, and the reminder's delivery mode decides
 * what follows.
 *
 * <p>One {@link HttpClient} (HTTP/1.1, connections kept alive) serves every namespace; the timeout
 * bounds the whole exchange, from connecting to the end of the response, because a delivery thread
 * waits for it.
 */
public class WebhookSink {

  /** The fence of the fire (its version): receivers de-duplicate on it, per key. */
  public static final String FENCE = "Belfry-Fence";

  /** The delivery attempt, from 1. */
  public static final String ATTEMPT = "Belfry-Attempt";

  /** {@code sha256=<hex HMAC-SHA256 of the body>}, see {@link Signature}. */
  public static final String SIGNATURE = "Belfry-Signature";

  /** The namespace the fire belongs to (namespaces are ASCII by their rule). */
  public static final String NAMESPACE = "Belfry-Namespace";

  static final String USER_AGENT = "Belfry-Webhook/1";

  private final HttpClient client;

  public WebhookSink() {
    this(
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build());
  }

  WebhookSink(HttpClient client) {
    this.client = client;
  }

  /**
   * Posts {@code fire} to the webhook of {@code sink} and waits for the answer.
   *
   * @throws SinkException on a non-2xx answer, a timeout, or an I/O failure
   */
  public void send(SinkSettings sink, ReminderFired fire) {
    PrivateTargets.checkResolved(URI.create(sink.webhookUrl()));
    byte[] body = FireJson.bytes(fire);
    Duration timeout = sink.timeout();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(sink.webhookUrl()))
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .header("User-Agent", USER_AGENT)
            .header(FENCE, Long.toString(fire.getFence()))
            .header(ATTEMPT, Integer.toString(fire.getAttempt()))
            .header(NAMESPACE, fire.getNamespace())
            .header(SIGNATURE, Signature.sign(sink.secret(), body))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    CompletableFuture<HttpResponse<Void>> exchange =
        client.sendAsync(request, HttpResponse.BodyHandlers.discarding());
    HttpResponse<Void> response;
    try {
      response = exchange.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      exchange.cancel(true);
      throw new SinkException(
          "webhook " + SinkTargets.origin(sink.webhookUrl()) + " timed out after " + timeout, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof java.net.http.HttpTimeoutException) {
        throw new SinkException(
            "webhook " + SinkTargets.origin(sink.webhookUrl()) + " timed out after " + timeout,
            cause);
      }
      throw new SinkException(
          "webhook " + SinkTargets.origin(sink.webhookUrl()) + " failed: " + describe(cause),
          cause);
    } catch (InterruptedException e) {
      exchange.cancel(true);
      Thread.currentThread().interrupt();
      throw new SinkException(
          "webhook " + SinkTargets.origin(sink.webhookUrl()) + " interrupted", e);
    }
    int status = response.statusCode();
    if (status < 200 || status > 299) {
      throw new SinkException(
          "webhook " + SinkTargets.origin(sink.webhookUrl()) + " answered HTTP " + status);
    }
  }

  private static String describe(Throwable cause) {
    if (cause instanceof IOException && cause.getMessage() == null) {
      return cause.getClass().getSimpleName();
    }
    return String.valueOf(cause);
  }
}
