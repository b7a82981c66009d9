package io.belfry.reminders.archive;

import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.sink.SinkException;
import io.belfry.reminders.sink.SinkSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.jboss.logging.Logger;

/**
 * Where this deployment's activity is archived and where its namespaces' sinks are read: its own
 * audit module when it has one (then this class has nothing to do), otherwise the node's, through
 * the MBean {@value #OBJECT_NAME} that the deployment with the audit module registers (see the
 * package comment).
 *
 * <p>With no archive on the node at all (no deployment there bundles the audit module), activity is
 * not archived and fires are not forwarded, as before this bridge existed; the first such activity
 * is logged ({@code BELFRY-0332}).
 */
@ApplicationScoped
public class NodeArchive {

  private static final Logger LOG = Logger.getLogger(NodeArchive.class);

  public static final String OBJECT_NAME = "io.belfry:type=NodeArchive";

  static final ObjectName NAME = objectName();

  private static final String[] ACTIVITY = {String[].class.getName()};
  private static final String[] TOMBSTONES = {String[][].class.getName()};
  private static final String[] NAMESPACE = {String.class.getName()};

  @Inject Instance<ActivityArchive> own;

  private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
  private final AtomicBoolean missingLogged = new AtomicBoolean();

  /** Whether this deployment archives for itself (it bundles the audit module). */
  public boolean archivesItself() {
    return own.isResolvable();
  }

  /** Sends {@code activity} to the node's archive; never throws (the engine must go on). */
  public void record(ReminderActivity activity) {
    try {
      server.invoke(NAME, "record", new Object[] {ActivityCodec.encode(activity)}, ACTIVITY);
    } catch (InstanceNotFoundException e) {
      noArchive(activity.namespace());
    } catch (Exception e) {
      LOG.warnf(
          "BELFRY-0335 The node's archive refused %s %s/%s: %s",
          activity.type(), activity.namespace(), activity.key(), cause(e));
    }
  }

  /**
   * Writes {@code tombstones} to the node's archive now.
   *
   * @throws Exception if the archive did not take them, so that the engine keeps them; with no
   *     archive on the node, nothing to keep them for, and returns
   */
  public void archiveNow(List<ReminderActivity> tombstones) throws Exception {
    String[][] encoded = tombstones.stream().map(ActivityCodec::encode).toArray(String[][]::new);
    try {
      server.invoke(NAME, "archiveNow", new Object[] {encoded}, TOMBSTONES);
    } catch (InstanceNotFoundException e) {
      noArchive(tombstones.isEmpty() ? "?" : tombstones.get(0).namespace());
    } catch (MBeanException e) {
      throw e.getTargetException();
    }
  }

  /**
   * The sink of {@code namespace} as the node's archive has it; empty when it has none, or when no
   * deployment on this node holds the sink configuration.
   *
   * @throws SinkException if the node's archive cannot read the configuration now
   */
  public Optional<SinkSettings> sinkFor(String namespace) {
    try {
      String[] sink =
          (String[]) server.invoke(NAME, "sinkFor", new Object[] {namespace}, NAMESPACE);
      return sink == null ? Optional.empty() : Optional.of(ActivityCodec.decodeSink(sink));
    } catch (InstanceNotFoundException e) {
      noArchive(namespace);
      return Optional.empty();
    } catch (Exception e) {
      throw new SinkException("the sink configuration cannot be read: " + cause(e), e);
    }
  }

  private void noArchive(String namespace) {
    if (missingLogged.compareAndSet(false, true)) {
      LOG.warnf(
          "BELFRY-0332 No deployment on this node archives Belfry's activity (deploy belfry.war):"
              + " activity of namespace %s and others is not archived, and their sinks are not"
              + " read",
          namespace);
    }
  }

  private static String cause(Exception e) {
    Throwable cause = e instanceof MBeanException m ? m.getTargetException() : e;
    return String.valueOf(cause.getMessage());
  }

  private static ObjectName objectName() {
    try {
      return new ObjectName(OBJECT_NAME);
    } catch (MalformedObjectNameException e) {
      throw new IllegalStateException(e);
    }
  }
}
