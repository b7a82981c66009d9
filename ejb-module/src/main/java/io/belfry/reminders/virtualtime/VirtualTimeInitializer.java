package io.belfry.reminders.virtualtime;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import java.util.Set;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.jboss.logging.Logger;

/**
 * Registers {@link VirtualTimeServlet} in a web application that runs on virtual time ({@link
 * VirtualTimeSwitch}), and nothing in any other: on a server without the switch the path does not
 * exist.
 */
public class VirtualTimeInitializer implements ServletContainerInitializer {

  private static final Logger LOG = Logger.getLogger(VirtualTimeInitializer.class);

  @Override
  public void onStartup(Set<Class<?>> ignored, ServletContext context) {
    String application = applicationName(context);
    if (!VirtualTimeSwitch.enabledFor(application)) {
      return;
    }
    context
        .addServlet("belfry-virtual-time", VirtualTimeServlet.class)
        .addMapping(VirtualTimeServlet.PATH);
    LOG.warnf(
        "BELFRY-0006 Virtual time endpoint at %s%s for application %s (test servers only)",
        context.getContextPath(), VirtualTimeServlet.PATH, application);
  }

  /** {@code java:app/AppName}, as the engine names it; else a WAR's default, its context path. */
  private static String applicationName(ServletContext context) {
    try {
      return (String) new InitialContext().lookup("java:app/AppName");
    } catch (NamingException e) {
      return context.getContextPath().replaceFirst("^/", "");
    }
  }
}
