package io.belfry.web.rest;

import static io.belfry.reminders.model.JsonFactory.JSON;

import io.belfry.reminders.placement.ClusterSnapshot;
import io.belfry.reminders.placement.ClusterStatus;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /cluster}: the members of the reminders cache's cluster as this node sees them, with
 * the primary segments each owns and the live reminders in those segments.
 */
@Path("cluster")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class ClusterResource {

  @Inject ClusterStatus status;

  @GET
  public String cluster() {
    ClusterSnapshot snapshot = status.snapshot();
    JsonArrayBuilder members = JSON.createArrayBuilder();
    for (ClusterSnapshot.Member m : snapshot.members()) {
      members.add(
          JSON.createObjectBuilder()
              .add("node", m.name())
              .add("primarySegments", m.primarySegments())
              .add("armedReminders", m.armedReminders()));
    }
    return JSON.createObjectBuilder()
        .add("node", snapshot.node())
        .add("coordinator", snapshot.coordinator())
        .add("totalSegments", snapshot.totalSegments())
        .add("members", members)
        .build()
        .toString();
  }
}
