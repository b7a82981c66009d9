package io.belfry.web.rest;

import io.belfry.reminders.sink.SinkConfiguration;
import io.belfry.reminders.sink.SinkDirectory.StoredSink;
import io.belfry.reminders.sink.SinkException;
import io.belfry.web.rest.json.RequestBody;
import io.belfry.web.rest.json.SinkJson;
import io.belfry.web.rest.problem.Problem;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.io.IOException;
import java.io.InputStream;
import java.security.Principal;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * {@code /namespaces/{namespace}/sink}, admins only (web.xml), reads included, because a sink's URL
 * may be private: read, create or replace, and remove where a namespace's fires are forwarded.
 * Everything goes through {@link SinkConfiguration} and its validation (docs/sinks.md).
 */
@Path("namespaces/{namespace}/sink")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class SinkResource {

  private static final Logger LOG = Logger.getLogger(SinkResource.class);

  @Inject SinkConfiguration sinks;

  @Context SecurityContext security;

  @GET
  public Response get(@PathParam("namespace") String namespace) {
    return stored(() -> sinks.read(namespace))
        .map(sink -> Response.ok(SinkJson.of(sink).toString()).build())
        .orElseGet(() -> notFound(namespace));
  }

  @PUT
  @Consumes(MediaType.APPLICATION_JSON)
  public Response save(@PathParam("namespace") String namespace, InputStream body)
      throws IOException {
    var settings = SinkJson.read(RequestBody.jsonObject(body));
    Principal caller = security.getUserPrincipal();
    boolean created =
        stored(() -> sinks.save(namespace, settings, caller == null ? null : caller.getName()));
    StoredSink saved = stored(() -> sinks.read(namespace)).orElseThrow();
    return Response.status(created ? Response.Status.CREATED : Response.Status.OK)
        .entity(SinkJson.of(saved).toString())
        .build();
  }

  @DELETE
  public Response remove(@PathParam("namespace") String namespace) {
    return stored(() -> sinks.remove(namespace))
        ? Response.noContent().build()
        : notFound(namespace);
  }

  private static Response notFound(String namespace) {
    return Problem.of(
            "sink-not-found",
            "No such sink",
            Response.Status.NOT_FOUND,
            "Namespace " + namespace + " has no sink")
        .toResponse();
  }

  /** The database's failures as {@code 503}: the configuration lives in {@code BelfryDS}. */
  private static <T> T stored(Supplier<T> action) {
    try {
      return action.get();
    } catch (SinkException e) {
      LOG.warnf("BELFRY-0502 The sink configuration is not available: %s", e.getMessage());
      throw new ServiceUnavailableException(
          "The sink configuration (audit database) is not available; try again later");
    }
  }
}
