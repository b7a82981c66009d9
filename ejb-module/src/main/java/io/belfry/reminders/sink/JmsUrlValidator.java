package io.belfry.reminders.sink;

import java.net.URI;
import java.util.Locale;

public class JmsUrlValidator extends UrlValidator<JmsUrl> {

  @Override
  String shape() {
    return "tcp://host:port";
  }

  @Override
  String problem(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("tcp") || uri.isOpaque()) {
      return "must be tcp://host:port";
    }
    if (uri.getRawUserInfo() != null) {
      return "must not carry credentials; use jmsUser and jmsPassword";
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      return "must name a host: tcp://host:port";
    }
    if (uri.getPort() < 1 || uri.getPort() > 65535) {
      return "must name a port from 1 to 65535: tcp://host:port";
    }
    boolean hasPath = uri.getRawPath() != null && !uri.getRawPath().isEmpty();
    if (hasPath || uri.getRawQuery() != null || uri.getRawFragment() != null) {
      return "must be only tcp://host:port (no path, query or fragment)";
    }
    return null;
  }
}
