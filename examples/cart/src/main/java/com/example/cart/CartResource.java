package com.example.cart;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** The shop's cart API: add an item, check out, and the carts declared abandoned so far. */
@Path("carts")
@RequestScoped
public class CartResource {

  @Inject AbandonedCarts carts;

  @PUT
  @Path("{cart}/items/{item}")
  public Response add(@PathParam("cart") String cart, @PathParam("item") String item) {
    carts.itemAdded(cart, item);
    return Response.noContent().build();
  }

  @POST
  @Path("{cart}/checkout")
  public Response checkout(@PathParam("cart") String cart) {
    carts.checkedOut(cart);
    return Response.noContent().build();
  }

  @GET
  @Path("abandoned")
  @Produces(MediaType.APPLICATION_JSON)
  public List<AbandonedCarts.AbandonedCart> abandoned() {
    return carts.abandoned();
  }
}
