package io.belfry.reminders.it;

import io.belfry.reminders.api.Reminders;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Application;
import java.time.Duration;

/**
 * Test-only HTTP access to the test application, for {@link FiresAcrossRestartIT}, which stops and
 * starts the server and so cannot run inside it.
 */
@Path("probe")
@RequestScoped
public class RestartProbe {

  @Inject Reminders reminders;

  @Inject FireRecorder recorder;

  @PUT
  @Path("reminders/{key}")
  public void set(@PathParam("key") String key, @QueryParam("delayMs") long delayMs) {
    reminders.setAfter(key, Duration.ofMillis(delayMs), null);
  }

  /** How often {@code key} fired; with {@code atLeast}, first waits up to {@code waitMs} for it. */
  @GET
  @Path("fires/{key}")
  public String fires(
      @PathParam("key") String key,
      @QueryParam("atLeast") int atLeast,
      @QueryParam("waitMs") long waitMs)
      throws InterruptedException {
    if (atLeast > 0) {
      recorder.awaitFires(key, atLeast, Duration.ofMillis(waitMs));
    }
    return Integer.toString(recorder.fires(key).size());
  }

  /** The probe's JAX-RS application, at the deployment's root. */
  @ApplicationPath("/")
  public static class ProbeApplication extends Application {}
}
