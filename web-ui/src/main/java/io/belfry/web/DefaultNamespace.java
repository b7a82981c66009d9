package io.belfry.web;

import io.belfry.reminders.api.ServesNamespaces;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The console's deployment serves the namespace {@value #NAME} out of the box: a reminder set there
 * (through the REST API, the console or Java) fires on this server, and its fires are audited.
 */
@ServesNamespaces(DefaultNamespace.NAME)
@ApplicationScoped
public class DefaultNamespace {
  public static final String NAME = "default";
}
