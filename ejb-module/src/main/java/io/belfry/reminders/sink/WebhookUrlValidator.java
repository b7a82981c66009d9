package io.belfry.reminders.sink;

import java.net.URI;
import java.util.Locale;

public class WebhookUrlValidator extends UrlValidator<WebhookUrl> {

  @Override
  String shape() {
    return "an absolute http or https URL";
  }

  @Override
  String problem(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!uri.isAbsolute() || !(scheme.equals("http") || scheme.equals("https"))) {
      return "must be an absolute http or https URL";
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      return "must name a host";
    }
    if (uri.getRawUserInfo() != null) {
      return "must not carry credentials; the signature authenticates Belfry";
    }
    if (uri.getRawFragment() != null) {
      return "must not have a fragment";
    }
    return PrivateTargets.literalProblem(uri);
  }
}
