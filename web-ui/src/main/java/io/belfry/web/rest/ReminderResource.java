package io.belfry.web.rest;

import static io.belfry.reminders.model.JsonFactory.JSON;

import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.InvalidReminderException.Violation;
import io.belfry.reminders.api.ReminderNotFoundException;
import io.belfry.reminders.api.ReminderQuery;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.ReminderStatus;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.api.Reminders.SetOutcome;
import io.belfry.reminders.placement.ClusterStatus;
import io.belfry.web.rest.json.ReminderBatchBody;
import io.belfry.web.rest.json.ReminderBody;
import io.belfry.web.rest.json.ReminderJson;
import io.belfry.web.rest.json.RequestBody;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

/**
 * {@code /reminders}: set, read, cancel and list reminders of any namespace. Everything goes
 * through the {@link Reminders} bean, with its validation; this class only translates HTTP.
 */
@Path("reminders")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class ReminderResource {

  // ReminderQuery's property names as the query parameters spell them
  private static final Map<String, String> QUERY_PARAMETERS = Map.of("keyPrefix", "prefix");

  @Inject Reminders reminders;
  @Inject ClusterStatus cluster;

  @PUT
  @Path("{namespace}/{key: .+}")
  @Consumes(MediaType.APPLICATION_JSON)
  public Response set(
      @PathParam("namespace") String namespace, @PathParam("key") String key, InputStream body)
      throws IOException {
    ReminderRequest request = ReminderBody.read(namespace, key, RequestBody.jsonObject(body));
    SetOutcome outcome = reminders.put(request);
    return Response.status(outcome.created() ? Response.Status.CREATED : Response.Status.OK)
        .entity(ReminderJson.of(outcome.reminder()).toString())
        .build();
  }

  /**
   * Sets up to {@value Reminders#MAX_BATCH} reminders of {@code namespace} in one request: {@code
   * {"reminders": [{"key": "k1", "fireAt": ...}, ...]}}, each item a {@code PUT} body plus its
   * {@code key}. Every item is checked before any is set; a violation names its item ({@code
   * reminders[3].fireAt}) and nothing is set. Answers the counts of created and replaced ones.
   */
  @POST
  @Path("{namespace}")
  @Consumes(MediaType.APPLICATION_JSON)
  public String setAll(@PathParam("namespace") String namespace, InputStream body)
      throws IOException {
    List<SetOutcome> outcomes =
        reminders.putAll(ReminderBatchBody.read(namespace, RequestBody.jsonObject(body)));
    long created = outcomes.stream().filter(SetOutcome::created).count();
    return JSON.createObjectBuilder()
        .add("created", created)
        .add("replaced", outcomes.size() - created)
        .build()
        .toString();
  }

  @GET
  @Path("{namespace}/{key: .+}")
  public String get(@PathParam("namespace") String namespace, @PathParam("key") String key) {
    return reminders
        .get(namespace, key)
        .map(
            r ->
                JSON.createObjectBuilder(ReminderJson.of(r))
                    .add("owner", cluster.ownerOf(namespace, key))
                    .build()
                    .toString())
        .orElseThrow(() -> new ReminderNotFoundException(namespace, key));
  }

  @DELETE
  @Path("{namespace}/{key: .+}")
  public Response cancel(@PathParam("namespace") String namespace, @PathParam("key") String key) {
    reminders.cancel(namespace, key);
    return Response.noContent().build();
  }

  /**
   * Sends a dead letter again (admins only, like every write): it becomes pending, due now, with
   * the same fence. {@code 404} if the key holds no dead letter.
   */
  @POST
  @Path("{namespace}/{key: .+}/redelivery")
  public String redeliver(@PathParam("namespace") String namespace, @PathParam("key") String key) {
    reminders.redeliver(namespace, key);
    return get(namespace, key);
  }

  @GET
  public String list(
      @QueryParam("namespace") String namespace,
      @QueryParam("prefix") String prefix,
      @QueryParam("state") String state,
      @QueryParam("dueBefore") String dueBefore,
      @QueryParam("dueAfter") String dueAfter,
      @QueryParam("limit") String limit,
      @QueryParam("cursor") String cursor) {
    QueryParams params = new QueryParams();
    ReminderQuery query =
        ReminderQuery.all()
            .withNamespace(QueryParams.text(namespace))
            .withKeyPrefix(QueryParams.text(prefix))
            .withState(params.enumeration("state", state, ReminderStatus.class))
            .withDueBefore(params.instant("dueBefore", dueBefore))
            .withDueAfter(params.instant("dueAfter", dueAfter))
            .withCursor(QueryParams.text(cursor));
    Integer pageSize = params.integer("limit", limit);
    params.check();
    if (pageSize != null) {
      query = query.withLimit(pageSize);
    }
    try {
      return ReminderJson.page(reminders.list(query)).toString();
    } catch (InvalidReminderException e) {
      throw renamed(e);
    }
  }

  private static InvalidReminderException renamed(InvalidReminderException e) {
    List<Violation> violations =
        e.getViolations().stream()
            .map(
                v ->
                    new Violation(QUERY_PARAMETERS.getOrDefault(v.field(), v.field()), v.message()))
            .toList();
    return new InvalidReminderException(violations);
  }
}
