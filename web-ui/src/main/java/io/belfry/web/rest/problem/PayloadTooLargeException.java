package io.belfry.web.rest.problem;

import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.core.Response;

/** A request body longer than the API reads: {@code 413}, with a problem body. */
public class PayloadTooLargeException extends ClientErrorException {

  private static final long serialVersionUID = 1L;

  public PayloadTooLargeException(long limitBytes) {
    super(
        "The request body is larger than " + limitBytes + " bytes",
        Response.Status.REQUEST_ENTITY_TOO_LARGE);
  }
}
