package io.belfry.reminders.virtualtime;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Registers {@link VirtualTimeServlet} in every web application of a server started with {@code
 * -Dbelfry.virtual-time}; it answers 404 in those the property does not name (the engine decides,
 * see {@link VirtualTime#enabled()}, so the path and the engine cannot disagree on the
 * application's name). On a server without the property, which is every configuration Belfry ships,
 * nothing is registered and the path does not exist.
 */
public class VirtualTimeInitializer implements ServletContainerInitializer {

  private static final Logger LOG = Logger.getLogger(VirtualTimeInitializer.class);

  @Override
  public void onStartup(Set<Class<?>> ignored, ServletContext context) {
    if (!VirtualTimeSwitch.isSet()) {
      return;
    }
    context
        .addServlet("belfry-virtual-time", VirtualTimeServlet.class)
        .addMapping(VirtualTimeServlet.PATH);
    LOG.warnf(
        "BELFRY-0006 Virtual time path at %s%s (-D%s is set: a test server only)",
        context.getContextPath(), VirtualTimeServlet.PATH, VirtualTimeSwitch.PROPERTY);
  }
}
