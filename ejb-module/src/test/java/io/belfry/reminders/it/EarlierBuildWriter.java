package io.belfry.reminders.it;

import io.belfry.reminders.config.ContainerResources;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Application;
import org.infinispan.Cache;

/**
 * Writes entries as every Belfry build before the plain form did: through the caches exactly as
 * WildFly hands them to a deployment, so that they are stored in that deployment's wrapped form.
 * Deployed without the engine, for {@link PlainFormUpgradeRestartIT}.
 */
@Path("earlier-build")
@RequestScoped
public class EarlierBuildWriter {

  @Resource(lookup = ContainerResources.REMINDERS_CACHE)
  Cache<String, String> reminders;

  @Resource(lookup = ContainerResources.ENGINES_CACHE)
  Cache<String, String> engines;

  /**
   * Stores {@code value} under {@code cacheKey}, as an earlier build's engine stored a reminder.
   */
  @PUT
  @Path("reminders/{cacheKey}")
  public void putReminder(@PathParam("cacheKey") String cacheKey, String value) {
    reminders.put(cacheKey, value);
  }

  /** Announces an engine in the roster, as an earlier build's running engine did. */
  @PUT
  @Path("engines/{key}")
  public void announceEngine(@PathParam("key") String key) {
    engines.put(key, "an earlier build");
  }

  /** Withdraws that engine. */
  @DELETE
  @Path("engines/{key}")
  public void withdrawEngine(@PathParam("key") String key) {
    engines.remove(key);
  }

  /** The writer's JAX-RS application, at the deployment's root. */
  @ApplicationPath("/")
  public static class WriterApplication extends Application {}
}
