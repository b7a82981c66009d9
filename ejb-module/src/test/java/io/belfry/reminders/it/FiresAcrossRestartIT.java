package io.belfry.reminders.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Recovery on a real server process: a reminder that comes due while the server is down fires after
 * it starts again, and one that fired before the restart does not fire again.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class FiresAcrossRestartIT {

  private static final String CONTAINER = "wildfly-manual";
  private static final String DEPLOYMENT = "restart-it";
  private static final String BASE = "http://127.0.0.1:8080/restart-it/";
  private static final Duration WAIT = Duration.ofSeconds(60);

  @Deployment(name = DEPLOYMENT, managed = false, testable = false)
  @TargetsContainer(CONTAINER)
  static WebArchive deployment() {
    return EngineDeployments.application(
        DEPLOYMENT, FireRecorder.class, RestartProbe.class, RestartProbe.ProbeApplication.class);
  }

  @ArquillianResource ContainerController controller;

  @ArquillianResource Deployer deployer;

  private final ProbeClient probe = new ProbeClient(BASE);

  @Test
  void reminderDueDuringDowntime_firesAfterRestart_andFiredOneNeverFiresAgain() throws Exception {
    String firedBefore = "before-" + UUID.randomUUID();
    String dueDuringDowntime = "downtime-" + UUID.randomUUID();
    controller.start(CONTAINER);
    try {
      deployer.deploy(DEPLOYMENT);
      set(firedBefore, 200);
      awaitFires(firedBefore, 1);

      Instant due = Instant.now().plusSeconds(3);
      set(dueDuringDowntime, 3000);
      controller.stop(CONTAINER);
      controller.start(CONTAINER); // the deployment is part of the server's configuration
      assertThat(Instant.now()).as("the reminder came due while the server was down").isAfter(due);

      awaitFires(dueDuringDowntime, 1);
      String sentinel = "sentinel-" + UUID.randomUUID();
      set(sentinel, 500);
      awaitFires(sentinel, 1);
      assertThat(fires(firedBefore)).as("fired before the restart: never again").isZero();
      assertThat(fires(dueDuringDowntime)).as("exactly once").isEqualTo(1);
    } finally {
      deployer.undeploy(DEPLOYMENT);
      controller.stop(CONTAINER);
    }
  }

  private void set(String key, long delayMs) throws Exception {
    probe.set(key, delayMs);
  }

  private int fires(String key) throws Exception {
    return probe.fires(key, 0, WAIT);
  }

  private void awaitFires(String key, int count) throws Exception {
    assertThat(probe.fires(key, count, WAIT))
        .as("%s fired within %s", key, WAIT)
        .isGreaterThanOrEqualTo(count);
  }
}
