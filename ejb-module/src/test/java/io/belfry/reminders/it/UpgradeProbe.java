package io.belfry.reminders.it;

import io.belfry.reminders.api.Reminder;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.config.RemindersCache;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.util.Set;
import org.infinispan.Cache;
import org.infinispan.context.Flag;

/** What {@link PlainFormUpgradeRestartIT} reads from the engine's side after an upgrade. */
@Path("upgrade")
@RequestScoped
public class UpgradeProbe {

  @Inject Reminders reminders;

  @Inject @RemindersCache Cache<String, String> cache;

  /** The reminder's state, version and next due time through the application's API; 404 if none. */
  @GET
  @Path("reminders/{namespace}/{key}")
  public String nextDue(@PathParam("namespace") String namespace, @PathParam("key") String key) {
    Reminder reminder = reminders.get(namespace, key).orElseThrow(() -> new NotFoundException(key));
    return reminder.state() + " v" + reminder.version() + " " + reminder.nextFireAt();
  }

  /** How many entries this node holds (memory and store) whose key is not a plain String. */
  @GET
  @Path("wrapped")
  public String wrapped() {
    long count = 0;
    for (Object key : (Set<?>) cache.getAdvancedCache().withFlags(Flag.CACHE_MODE_LOCAL).keySet()) {
      if (!(key instanceof String)) {
        count++;
      }
    }
    return Long.toString(count);
  }
}
