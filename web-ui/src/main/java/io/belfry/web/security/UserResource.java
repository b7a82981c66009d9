package io.belfry.web.security;

import static io.belfry.reminders.model.JsonFactory.JSON;

import io.belfry.web.rest.json.RequestBody;
import io.belfry.web.rest.problem.Problem;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.util.Set;

/**
 * {@code /users}, admins only: list users, create or replace one ({@code {"password": …, "roles":
 * [...]}}), remove one. Passwords are stored as bcrypt hashes and never shown.
 */
@Path("users")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class UserResource {

  @Inject UserDirectory users;

  @GET
  public String list() throws Exception {
    JsonArrayBuilder items = JSON.createArrayBuilder();
    for (UserDirectory.User user : users.list()) {
      items.add(
          JSON.createObjectBuilder()
              .add("name", user.name())
              .add("roles", JSON.createArrayBuilder(user.roles())));
    }
    return JSON.createObjectBuilder().add("items", items).build().toString();
  }

  @PUT
  @Path("{name}")
  @Consumes(MediaType.APPLICATION_JSON)
  public Response save(@PathParam("name") String name, InputStream body) throws Exception {
    JsonObject json = RequestBody.jsonObject(body);
    JsonFields.onlyKnown(json, "password", "roles");
    String password = JsonFields.string(json, "password");
    Set<String> roles = JsonFields.roles(json);
    boolean created = users.save(new UserAccount(name, password, roles));
    return Response.status(created ? Response.Status.CREATED : Response.Status.OK)
        .entity(
            JSON.createObjectBuilder()
                .add("name", name)
                .add("roles", JSON.createArrayBuilder(roles))
                .build()
                .toString())
        .build();
  }

  @DELETE
  @Path("{name}")
  public Response remove(@PathParam("name") String name) throws Exception {
    if (!users.remove(name)) {
      return Problem.of(
              "user-not-found", "No such user", Response.Status.NOT_FOUND, "No user " + name)
          .toResponse();
    }
    return Response.noContent().build();
  }
}
