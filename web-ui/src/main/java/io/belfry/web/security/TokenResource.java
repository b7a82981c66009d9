package io.belfry.web.security;

import static io.belfry.reminders.model.JsonFactory.JSON;

import io.belfry.web.rest.json.RequestBody;
import io.belfry.web.rest.problem.Problem;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.io.InputStream;
import java.security.Principal;

/**
 * API tokens for machine clients ({@code Authorization: Bearer <token>}), admins only (web.xml):
 * create (the token is in the answer, once; optionally bound to namespaces and with an expiry),
 * list (never the token), revoke.
 */
@Path("tokens")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class TokenResource {

  @Inject TokenDirectory tokens;

  @Context SecurityContext security;

  @GET
  public String list() throws Exception {
    JsonArrayBuilder items = JSON.createArrayBuilder();
    for (TokenDirectory.Token token : tokens.list()) {
      items.add(json(token));
    }
    return JSON.createObjectBuilder().add("items", items).build().toString();
  }

  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  public Response create(InputStream body) throws Exception {
    JsonObject json = RequestBody.jsonObject(body);
    JsonFields.onlyKnown(json, "name", "roles", "namespaces", "expiresAt");
    TokenRequest request =
        new TokenRequest(
            JsonFields.string(json, "name"),
            JsonFields.roles(json),
            JsonFields.namespaces(json),
            JsonFields.instant(json, "expiresAt"));
    Principal caller = security.getUserPrincipal();
    TokenDirectory.Created created =
        tokens.create(request, caller == null ? null : caller.getName());
    return Response.status(Response.Status.CREATED)
        .entity(json(created.token()).add("token", created.secret()).build().toString())
        .build();
  }

  @DELETE
  @Path("{id}")
  public Response revoke(@PathParam("id") String id) throws Exception {
    if (!tokens.revoke(id)) {
      return Problem.of(
              "token-not-found", "No such token", Response.Status.NOT_FOUND, "No token " + id)
          .toResponse();
    }
    return Response.noContent().build();
  }

  private static JsonObjectBuilder json(TokenDirectory.Token token) {
    JsonObjectBuilder json =
        JSON.createObjectBuilder()
            .add("id", token.id())
            .add("name", token.name())
            .add("roles", JSON.createArrayBuilder(token.roles()))
            .add(
                "namespaces",
                token.namespaces().isEmpty()
                    ? JsonValue.NULL
                    : JSON.createArrayBuilder(token.namespaces()).build())
            .add(
                "expiresAt",
                token.expiresAt() == null
                    ? JsonValue.NULL
                    : JSON.createValue(token.expiresAt().toString()))
            .add("createdAt", token.createdAt().toString());
    if (token.createdBy() != null) {
      json.add("createdBy", token.createdBy());
    }
    json.add(
        "lastUsedAt",
        token.lastUsedAt() == null
            ? JsonValue.NULL
            : JSON.createValue(token.lastUsedAt().toString()));
    return json;
  }
}
