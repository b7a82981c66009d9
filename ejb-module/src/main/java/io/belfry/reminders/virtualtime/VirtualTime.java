package io.belfry.reminders.virtualtime;

import io.belfry.reminders.cdi.DeploymentNamespaces;
import io.belfry.reminders.cdi.EngineRuntime;
import io.belfry.reminders.engine.VirtualTimeDriver;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Virtual time inside a deployment on a test server, for Arquillian tests: inject it in an
 * in-container test, or call {@code /belfry/virtual-time} from a client test ({@link
 * VirtualTimeServlet}). It works only when the server was started with {@code
 * -Dbelfry.virtual-time=<this application's name>} ({@link VirtualTimeSwitch}); then this
 * deployment's engine has no timer and its clock starts at the real time of the deployment and
 * moves only when a test advances it. Every other method throws {@link IllegalStateException} when
 * virtual time is off, so a test cannot silently run on the real clock.
 *
 * <p>Advancing steps exactly as the test kit's {@code VirtualBelfry} does (the same {@link
 * VirtualTimeDriver}); fires are delivered to the deployment's observers on the caller's thread,
 * before the call returns. Calls are serialized: one advance at a time.
 */
@ApplicationScoped
public class VirtualTime {

  @Inject EngineRuntime runtime;

  @Inject DeploymentNamespaces namespaces;

  /** Whether this deployment runs on virtual time. */
  public boolean enabled() {
    return runtime.virtualTime().isPresent();
  }

  /** This deployment's virtual now. */
  public synchronized Instant now() {
    return driver().now();
  }

  /**
   * Moves virtual time forward by {@code step}, firing everything this deployment serves that comes
   * due on the way, each at its due time.
   *
   * @return how many fires were delivered
   */
  public synchronized int advanceBy(Duration step) {
    return driver().advanceBy(step);
  }

  /**
   * Moves virtual time forward to {@code target}, stopping at each instant something is due on the
   * way.
   *
   * @return how many fires were delivered
   */
  public synchronized int advanceTo(Instant target) {
    return driver().advanceTo(target);
  }

  /**
   * Fires what is due at virtual now without moving time (e.g. a reminder set at or before now).
   *
   * @return how many fires were delivered
   */
  public synchronized int fireDue() {
    return driver().fireDue();
  }

  /** When something this deployment serves is next due, if anything is pending. */
  public synchronized Optional<Instant> nextDue() {
    return driver().nextDue();
  }

  private VirtualTimeDriver driver() {
    return runtime
        .virtualTime()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "virtual time is off for application '"
                        + namespaces.applicationName()
                        + "': start the test server with -D"
                        + VirtualTimeSwitch.PROPERTY
                        + "="
                        + namespaces.applicationName()));
  }
}
