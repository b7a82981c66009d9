package io.belfry.web.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Belfry's REST API, version 1, under {@code /belfry/api/v1}. */
@ApplicationPath(RestApplication.PATH)
public class RestApplication extends Application {
  public static final String PATH = "/api/v1";
}
