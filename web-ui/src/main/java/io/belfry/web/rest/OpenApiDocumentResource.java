package io.belfry.web.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The API's OpenAPI document behind a login ({@code GET /api/v1/openapi}, any role): the same
 * hand-written document the server publishes at {@code /openapi}, for operators who turn that
 * public copy off ({@code -Dbelfry.openapi.public=false}, docs/security.md). Here it is as checked
 * in (paths relative to the server URL {@code /belfry/api/v1}).
 */
@Path("openapi")
public class OpenApiDocumentResource {

  static final String MEDIA_TYPE = "application/yaml";

  @GET
  @Produces(MEDIA_TYPE)
  public byte[] document() {
    try (InputStream in =
        OpenApiDocumentResource.class
            .getClassLoader()
            .getResourceAsStream("META-INF/openapi.yaml")) {
      if (in == null) {
        throw new NotFoundException("this build carries no OpenAPI document");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
