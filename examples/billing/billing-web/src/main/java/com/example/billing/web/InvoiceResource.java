package com.example.billing.web;

import com.example.billing.Dunning;
import com.example.billing.Invoices;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * {@code PUT /invoices/{id}?amount=…&due=…} issues (or corrects) an invoice, {@code POST
 * /invoices/{id}/payment} records its payment, {@code GET /invoices/overdue} lists those chased.
 */
@Path("invoices")
@RequestScoped
public class InvoiceResource {

  @Inject Invoices invoices;

  @Inject Dunning dunning;

  @PUT
  @Path("{invoice}")
  public Response issue(
      @PathParam("invoice") String invoice,
      @QueryParam("amount") String amount,
      @QueryParam("due") String due) {
    if (amount == null || due == null) {
      throw new BadRequestException("amount and due are required");
    }
    try {
      invoices.issue(invoice, new BigDecimal(amount), Instant.parse(due));
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new BadRequestException("amount is a decimal and due an ISO-8601 instant");
    }
    return Response.noContent().build();
  }

  @POST
  @Path("{invoice}/payment")
  public Response paid(@PathParam("invoice") String invoice) {
    invoices.paid(invoice);
    return Response.noContent().build();
  }

  @GET
  @Path("overdue")
  @Produces(MediaType.APPLICATION_JSON)
  public List<Dunning.OverdueInvoice> overdue() {
    return dunning.overdue();
  }
}
