package io.belfry.web.rest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.Paths;
import org.eclipse.microprofile.openapi.models.servers.Server;

/**
 * Serves the hand-written {@code docs/openapi.yaml} (the WAR's {@code META-INF/openapi.yaml}) at
 * the server's {@code /openapi} with URLs that work. The document names the API's base as its
 * server ({@code /belfry/api/v1}) and its paths relative to it ({@code /reminders}). WildFly 39
 * merges the documents of all deployments into one at {@code /openapi} and prefixes every path of a
 * deployment with its context root, after this filter, keeping the servers as they are: served as
 * written, {@code /reminders} would be listed as {@code /belfry/reminders} under the server {@code
 * /belfry/api/v1}. So this filter moves the API path into the paths and drops the server; WildFly
 * then adds {@code /belfry}, and {@code /openapi} lists {@code /belfry/api/v1/reminders}.
 * Everything else is served as written. Named by {@code mp.openapi.filter} in {@code
 * META-INF/microprofile-config.properties}.
 */
public class OpenApiServerPath implements OASFilter {

  @Override
  public void filterOpenAPI(OpenAPI openAPI) {
    List<Server> servers = openAPI.getServers();
    Paths paths = openAPI.getPaths();
    if (servers == null
        || servers.size() != 1
        || !servers.get(0).getUrl().endsWith(RestApplication.PATH)
        || paths == null
        || paths.getPathItems() == null) {
      return; // not the document this filter knows: serve it as it is
    }
    Map<String, PathItem> items = new LinkedHashMap<>(paths.getPathItems());
    items.forEach(
        (path, item) -> {
          paths.removePathItem(path);
          paths.addPathItem(RestApplication.PATH + path, item);
        });
    openAPI.setServers(null);
  }
}
