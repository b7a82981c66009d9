package io.belfry.web.security;

import io.belfry.reminders.config.BelfrySettings;
import io.belfry.web.rest.problem.Problem;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.servlet.ServletExtension;
import io.undertow.servlet.api.DeploymentInfo;
import io.undertow.util.Headers;
import jakarta.servlet.ServletContext;
import jakarta.ws.rs.core.Response;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Throttles failed logins per client address ({@link FailedLogins}) in front of belfry.war's
 * security: an Undertow handler outside the servlet's authentication, so that a request with
 * credentials from a blocked address is refused with {@code 429} before they cost anything
 * (bcrypt), and a request that carried credentials and was answered {@code 401} counts as a
 * failure. The console's login form reports its failures to the same counts ({@link #of}).
 * Registered as an Undertow servlet extension ({@code META-INF/services}), which WildFly runs for
 * the WAR.
 *
 * <p>Settings (system properties, read at deployment): {@code belfry.login-throttle.max-failures}
 * (default {@value #DEFAULT_MAX_FAILURES}) and {@code belfry.login-throttle.lockout} (default
 * {@code PT15M}). See docs/security.md, "Password guessing".
 */
public class LoginThrottle implements ServletExtension {

  static final String MAX_FAILURES = "belfry.login-throttle.max-failures";
  static final String LOCKOUT = "belfry.login-throttle.lockout";
  static final int DEFAULT_MAX_FAILURES = 30;
  static final Duration DEFAULT_LOCKOUT = Duration.ofMinutes(15);

  private static final Logger LOG = Logger.getLogger(LoginThrottle.class);
  private static final String ATTRIBUTE = FailedLogins.class.getName();

  @Override
  public void handleDeployment(DeploymentInfo deployment, ServletContext context) {
    FailedLogins failures = new FailedLogins(maxFailures(), lockout());
    context.setAttribute(ATTRIBUTE, failures);
    deployment.addOuterHandlerChainWrapper(next -> new Gate(next, failures));
  }

  /** The counts of the deployment {@code context} belongs to. */
  public static FailedLogins of(ServletContext context) {
    return (FailedLogins) context.getAttribute(ATTRIBUTE);
  }

  /**
   * Counts a failed login from {@code address} (a {@link FailedLogins#keyOf} key), and says so in
   * the log when it blocks it.
   */
  public static void failed(FailedLogins failures, String address) {
    if (failures.failed(address)) {
      LOG.warnf(
          "BELFRY-0613 Address %s refused for %s after %d failed logins",
          address, failures.lockout(), failures.maxFailures());
    }
  }

  private static final class Gate implements HttpHandler {
    private final HttpHandler next;
    private final FailedLogins failures;

    Gate(HttpHandler next, FailedLogins failures) {
      this.next = next;
      this.failures = failures;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
      // Only requests that carry credentials are gated: the console's pages and /health load
      // without any, and the console's login form checks the counts itself (LoginView).
      if (exchange.getRequestHeaders().contains(Headers.AUTHORIZATION)) {
        String address = FailedLogins.keyOf(addressOf(exchange));
        if (failures.isBlocked(address)) {
          refuse(exchange, address);
          return;
        }
        exchange.addResponseCommitListener(
            committed -> {
              if (committed.getStatusCode() == 401) {
                failed(failures, address);
              }
            });
      }
      next.handleRequest(exchange);
    }

    /** The client's address; a forwarded name that is no IP address stays unresolved. */
    private static String addressOf(HttpServerExchange exchange) {
      InetSocketAddress source = exchange.getSourceAddress();
      return source.getAddress() != null
          ? source.getAddress().getHostAddress()
          : source.getHostString();
    }

    private void refuse(HttpServerExchange exchange, String address) {
      Duration wait = failures.retryAfter(address).orElse(failures.lockout());
      Problem problem =
          Problem.of(
              "too-many-failed-logins",
              "Too many failed logins",
              Response.Status.TOO_MANY_REQUESTS,
              "Too many failed logins from this address; try again in "
                  + Math.max(1, wait.toSeconds())
                  + " s");
      exchange.setStatusCode(429);
      exchange
          .getResponseHeaders()
          .put(Headers.RETRY_AFTER, Long.toString(Math.max(1, wait.toSeconds())))
          .put(Headers.CONTENT_TYPE, Problem.MEDIA_TYPE);
      exchange.getResponseSender().send(problem.toJson().toString(), StandardCharsets.UTF_8);
    }
  }

  private static int maxFailures() {
    try {
      int value = BelfrySettings.intProperty(MAX_FAILURES, DEFAULT_MAX_FAILURES);
      if (value >= 1) {
        return value;
      }
    } catch (IllegalStateException e) {
      // reported below
    }
    LOG.errorf(
        "BELFRY-0614 Ignoring %s=%s (a whole number of at least 1): using %d",
        MAX_FAILURES, System.getProperty(MAX_FAILURES), DEFAULT_MAX_FAILURES);
    return DEFAULT_MAX_FAILURES;
  }

  private static Duration lockout() {
    try {
      Duration value = BelfrySettings.durationProperty(LOCKOUT, DEFAULT_LOCKOUT);
      if (!value.isNegative() && !value.isZero()) {
        return value;
      }
    } catch (IllegalStateException e) {
      // reported below
    }
    LOG.errorf(
        "BELFRY-0615 Ignoring %s=%s (a positive duration such as PT15M or 15m): using %s",
        LOCKOUT, System.getProperty(LOCKOUT), DEFAULT_LOCKOUT);
    return DEFAULT_LOCKOUT;
  }
}
