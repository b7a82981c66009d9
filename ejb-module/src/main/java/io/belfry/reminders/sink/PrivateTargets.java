package io.belfry.reminders.sink;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Whether webhooks may point at this machine or a private network: by default not, so that whoever
 * may configure a sink cannot make every node send requests to the loopback interface, the cloud
 * metadata service (169.254.169.254) or the internal network (server-side request forgery). An
 * admin allows them with the system property {@value #PROPERTY}{@code =allow} (tests and local
 * receivers do). Checked twice: the literal host when a sink is saved, and every address the host
 * name resolves to at every send, since a public name can resolve to a private address later.
 */
public final class PrivateTargets {

  /** System property: {@code refuse} (default) or {@code allow}. */
  public static final String PROPERTY = "belfry.webhook.private-targets";

  private PrivateTargets() {}

  public static boolean allowed() {
    return "allow".equalsIgnoreCase(System.getProperty(PROPERTY, "refuse").trim());
  }

  /**
   * Why the host written in {@code uri} is refused (a literal private address or {@code
   * localhost}), or {@code null}: host names are only resolved at send.
   */
  static String literalProblem(URI uri) {
    if (allowed() || uri.getHost() == null) {
      return null;
    }
    String host = uri.getHost().toLowerCase(Locale.ROOT);
    if (host.equals("localhost") || host.endsWith(".localhost")) {
      return refusal(host);
    }
    if (!looksLikeAddress(host)) {
      return null;
    }
    try {
      return isPrivate(InetAddress.getByName(host)) ? refusal(host) : null;
    } catch (UnknownHostException e) {
      return null;
    }
  }

  /**
   * Resolves the host of {@code uri} and refuses it if any of its addresses is private.
   *
   * @throws SinkException naming the origin only, if refused or not resolvable
   */
  static void checkResolved(URI uri) {
    if (allowed()) {
      return;
    }
    try {
      for (InetAddress address : InetAddress.getAllByName(uri.getHost())) {
        if (isPrivate(address)) {
          throw new SinkException(
              "webhook "
                  + SinkTargets.origin(uri.toString())
                  + " resolves to "
                  + address.getHostAddress()
                  + ": "
                  + refusal(uri.getHost()));
        }
      }
    } catch (UnknownHostException e) {
      throw new SinkException(
          "webhook " + SinkTargets.origin(uri.toString()) + ": unknown host", e);
    }
  }

  static boolean isPrivate(InetAddress address) {
    if (address.isLoopbackAddress()
        || address.isLinkLocalAddress()
        || address.isSiteLocalAddress()
        || address.isAnyLocalAddress()
        || address.isMulticastAddress()) {
      return true;
    }
    byte[] bytes = address.getAddress();
    // IPv6 unique local addresses, fc00::/7 (Java's isSiteLocalAddress knows only fec0::/10)
    if (bytes.length == 16 && (bytes[0] & 0xfe) == 0xfc) {
      return true;
    }
    // carrier-grade NAT, 100.64.0.0/10
    return bytes.length == 4 && (bytes[0] & 0xff) == 100 && (bytes[1] & 0xc0) == 64;
  }

  private static boolean looksLikeAddress(String host) {
    return host.startsWith("[") || host.contains(":") || host.matches("[0-9.]+");
  }

  private static String refusal(String host) {
    return "a private, loopback or link-local address ("
        + host
        + ") is refused; an admin may allow them with "
        + PROPERTY
        + "=allow";
  }
}
