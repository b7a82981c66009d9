package io.belfry.nodearchive;

import io.belfry.audit.AuditWriter;
import io.belfry.reminders.archive.ActivityCodec;
import io.belfry.reminders.archive.NodeArchive;
import io.belfry.reminders.archive.NodeArchiveMBean;
import io.belfry.reminders.sink.SinkDirectory;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.function.Supplier;
import javax.management.InstanceAlreadyExistsException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.jboss.logging.Logger;

/**
 * Publishes this deployment's audit archive and sink configuration to the whole node as the MBean
 * {@value NodeArchive#OBJECT_NAME}, for deployments that do not bundle the audit module (see {@code
 * io.belfry.reminders.archive}). The first deployment on the node to start with the audit module
 * registers it (normally {@code belfry.war}); another one archives only itself. It is removed when
 * that deployment stops.
 */
@ApplicationScoped
public class NodeArchiveEndpoint implements NodeArchiveMBean {

  private static final Logger LOG = Logger.getLogger(NodeArchiveEndpoint.class);

  @Inject AuditWriter writer;

  @Inject SinkDirectory sinks;

  private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
  private ObjectName registered;

  void onStart(@Observes @Initialized(ApplicationScoped.class) Object ignored) throws Exception {
    ObjectName name = new ObjectName(NodeArchive.OBJECT_NAME);
    try {
      server.registerMBean(new StandardMBean(this, NodeArchiveMBean.class), name);
      registered = name;
      LOG.debugf("BELFRY-0440 This deployment archives for the node (%s)", name);
    } catch (InstanceAlreadyExistsException e) {
      LOG.debugf("BELFRY-0441 Another deployment archives for the node; this one for itself");
    }
  }

  @PreDestroy
  void unregister() {
    if (registered != null) {
      try {
        server.unregisterMBean(registered);
      } catch (Exception e) {
        LOG.debugf("BELFRY-0442 Could not unregister %s: %s", registered, e);
      }
    }
  }

  @Override
  public void record(String[] activity) {
    inThisDeployment(
        () -> {
          writer.record(ActivityCodec.decode(activity));
          return null;
        });
  }

  @Override
  public void archiveNow(String[][] tombstones) throws Exception {
    ClassLoader caller = Thread.currentThread().getContextClassLoader();
    Thread.currentThread().setContextClassLoader(NodeArchiveEndpoint.class.getClassLoader());
    try {
      writer.archiveNow(Arrays.stream(tombstones).map(ActivityCodec::decode).toList());
    } finally {
      Thread.currentThread().setContextClassLoader(caller);
    }
  }

  @Override
  public String[] sinkFor(String namespace) {
    return inThisDeployment(
        () -> sinks.forNamespace(namespace).map(ActivityCodec::encode).orElse(null));
  }

  /**
   * Runs {@code work} with this deployment's class loader as the context class loader: the caller
   * is another deployment's thread, and the JDBC driver and Flyway's resources are found through
   * this one's.
   */
  private static <T> T inThisDeployment(Supplier<T> work) {
    ClassLoader caller = Thread.currentThread().getContextClassLoader();
    Thread.currentThread().setContextClassLoader(NodeArchiveEndpoint.class.getClassLoader());
    try {
      return work.get();
    } finally {
      Thread.currentThread().setContextClassLoader(caller);
    }
  }
}
