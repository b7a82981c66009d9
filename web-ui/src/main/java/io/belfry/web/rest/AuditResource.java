package io.belfry.web.rest;

import static io.belfry.reminders.model.JsonFactory.JSON;

import io.belfry.audit.AuditCursor;
import io.belfry.audit.AuditPage;
import io.belfry.audit.AuditQueries;
import io.belfry.audit.AuditQuery;
import io.belfry.audit.AuditRecord;
import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.ReminderActivity;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.persistence.PersistenceException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import org.jboss.logging.Logger;

/** {@code GET /audit}: the archive, newest first, filtered and paged with a keyset cursor. */
@Path("audit")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

  private static final Logger LOG = Logger.getLogger(AuditResource.class);

  @Inject AuditQueries queries;

  @GET
  public String list(
      @QueryParam("namespace") String namespace,
      @QueryParam("key") String key,
      @QueryParam("type") String type,
      @QueryParam("since") String since,
      @QueryParam("until") String until,
      @QueryParam("limit") String limit,
      @QueryParam("cursor") String cursor) {
    QueryParams params = new QueryParams();
    ReminderActivity.Type activityType =
        params.enumeration("type", type, ReminderActivity.Type.class);
    Instant from = params.instant("since", since);
    Instant to = params.instant("until", until);
    Integer pageSize = params.integer("limit", limit);
    AuditCursor after =
        params.parse("cursor", cursor, AuditCursor::parse, "is not a cursor this API returned");
    params.check();
    if (pageSize != null && (pageSize < 1 || pageSize > AuditQuery.MAX_LIMIT)) {
      throw InvalidReminderException.of("limit", "must be between 1 and " + AuditQuery.MAX_LIMIT);
    }
    if (from != null && to != null && !from.isBefore(to)) {
      throw InvalidReminderException.of("until", "must be after since");
    }
    AuditQuery query =
        AuditQuery.all()
            .withNamespace(QueryParams.text(namespace))
            .withKey(QueryParams.text(key))
            .withType(activityType)
            .between(from, to)
            .withCursor(after)
            .withLimit(pageSize == null ? AuditQuery.DEFAULT_LIMIT : pageSize);
    try {
      return page(queries.list(query)).toString();
    } catch (PersistenceException e) {
      LOG.warnf("BELFRY-0501 The audit archive cannot be read: %s", e.toString());
      throw new ServiceUnavailableException("The audit database is not available; try again later");
    }
  }

  private static JsonObject page(AuditPage page) {
    JsonArrayBuilder items = JSON.createArrayBuilder();
    page.records().forEach(r -> items.add(record(r)));
    JsonObjectBuilder json = JSON.createObjectBuilder().add("items", items);
    if (page.next() == null) {
      json.addNull("next");
    } else {
      json.add("next", page.next().toString());
    }
    return json.build();
  }

  static JsonObject record(AuditRecord r) {
    JsonObjectBuilder json =
        JSON.createObjectBuilder()
            .add("type", r.type().name())
            .add("namespace", r.namespace())
            .add("key", r.key())
            .add("version", r.version())
            .add("occurrence", r.occurrence());
    nullable(json, "dueAt", r.dueAt() == null ? null : r.dueAt().toString());
    json.add("at", r.eventAt().toString());
    if (r.latenessMillis() == null) {
      json.addNull("latenessMs");
    } else {
      json.add("latenessMs", r.latenessMillis());
    }
    json.add("node", r.node());
    nullable(json, "principal", r.principal());
    nullable(json, "detail", r.detail());
    return json.build();
  }

  private static void nullable(JsonObjectBuilder json, String name, String value) {
    if (value == null) {
      json.addNull(name);
    } else {
      json.add(name, value);
    }
  }
}
