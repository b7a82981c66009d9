package io.belfry.reminders.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.store.CacheValues;
import io.belfry.reminders.store.VersionMergeTest;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The upgrade from the builds that stored WildFly's per-deployment form to the plain form, on a
 * real server and its file store: reminders an earlier build stored are read, fired once and kept
 * across a restart by this build, none stays in the old form, and this build refuses to start
 * beside a running engine of an earlier build.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class PlainFormUpgradeRestartIT {

  private static final String CONTAINER = "wildfly-manual";
  private static final String WRITER = "earlier-build";
  private static final String APPLICATION = "upgrade-it";

  /** The namespace the test application's engine serves (FireRecorder declares it). */
  private static final String NAMESPACE = FireRecorder.NAMESPACE;

  private static final String SERVER = "http://127.0.0.1:8080/";
  private static final Duration WAIT = Duration.ofSeconds(60);

  /** The marker the move leaves beside the test server's file store (PlainForm.movedMarker). */
  private static final Path MOVED_MARKER =
      Path.of(
          System.getProperty("jboss.home"),
          "standalone/data/infinispan/belfry/reminders/belfry-plain-form");

  @Deployment(name = WRITER, managed = false, testable = false)
  @TargetsContainer(CONTAINER)
  static WebArchive writer() {
    return ShrinkWrap.create(WebArchive.class, WRITER + ".war")
        .addClasses(EarlierBuildWriter.class, EarlierBuildWriter.WriterApplication.class)
        .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
        .setManifest(
            new StringAsset(
                "Manifest-Version: 1.0\n"
                    + "Dependencies: org.infinispan.core, org.infinispan.commons\n"));
  }

  @Deployment(name = APPLICATION, managed = false, testable = false)
  @TargetsContainer(CONTAINER)
  static WebArchive application() {
    return EngineDeployments.application(
        APPLICATION,
        FireRecorder.class,
        RestartProbe.class,
        RestartProbe.ProbeApplication.class,
        UpgradeProbe.class);
  }

  @ArquillianResource ContainerController controller;

  @ArquillianResource Deployer deployer;

  private final ProbeClient app = new ProbeClient(SERVER + APPLICATION + "/");
  private final ProbeClient writer = new ProbeClient(SERVER + WRITER + "/");

  @Test
  void remindersOfAnEarlierBuild_afterTheUpgrade_fireOnceAndAreKeptInPlainForm() throws Exception {
    String overdue = "overdue-" + UUID.randomUUID();
    String future = "future-" + UUID.randomUUID();
    String fired = "fired-" + UUID.randomUUID();
    Instant later =
        Instant.now().plus(Duration.ofHours(1)).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    // a store an earlier build wrote has no marker; earlier suites deployed this build here
    Files.deleteIfExists(MOVED_MARKER);
    controller.start(CONTAINER);
    try {
      deployer.deploy(WRITER);
      writeAsEarlierBuild(pending(overdue, 3, Instant.now().minusSeconds(5)));
      writeAsEarlierBuild(pending(future, 7, later));
      writeAsEarlierBuild(
          pending(fired, 4, Instant.now().minusSeconds(60))
              .tombstone(ReminderState.FIRED, System.currentTimeMillis()));
      deployer.undeploy(WRITER);

      deployer.deploy(APPLICATION); // this build's first start: it moves the entries
      assertThat(fires(overdue, 1)).as("the overdue one fires").isEqualTo(1);
      assertThat(get(future)).as("the future one is read").isEqualTo("PENDING v7 " + later);
      assertThat(app.status("upgrade/reminders/" + NAMESPACE + "/" + fired))
          .as("a tombstone stays one")
          .isEqualTo(404);
      assertThat(app.body("upgrade/wrapped")).as("entries left in the earlier form").isEqualTo("0");
      assertThat(MOVED_MARKER).as("later starts skip the look").exists();

      controller.stop(CONTAINER);
      controller.start(CONTAINER); // read back from the file store, as this build wrote it
      assertThat(get(future)).as("kept across a restart").isEqualTo("PENDING v7 " + later);
      assertThat(app.body("upgrade/wrapped")).as("entries in the earlier form").isEqualTo("0");
      String sentinel = "sentinel-" + UUID.randomUUID();
      app.set(sentinel, 300);
      assertThat(fires(sentinel, 1)).as("the engine runs after the restart").isEqualTo(1);
      assertThat(fires(overdue, 0)).as("fired before the restart: never again").isZero();
      assertThat(fires(fired, 0)).as("a tombstone never fires").isZero();
    } finally {
      deployer.undeploy(APPLICATION);
      controller.stop(CONTAINER);
    }
  }

  @Test
  void thisBuild_besideARunningEngineOfAnEarlierBuild_refusesToStart() throws Exception {
    String engine = APPLICATION + "/" + UUID.randomUUID();
    controller.start(CONTAINER);
    try {
      deployer.deploy(WRITER);
      assertThat(writer.put("earlier-build/engines/" + ProbeClient.segment(engine), ""))
          .isEqualTo(204);
      assertThatThrownBy(() -> deployer.deploy(APPLICATION))
          .as("the deployment fails while an earlier build's engine is announced")
          .hasStackTraceContaining("BELFRY-0032");
      deployer.undeploy(APPLICATION);

      assertThat(writer.delete("earlier-build/engines/" + ProbeClient.segment(engine)))
          .isEqualTo(204);
      deployer.deploy(APPLICATION);
      String sentinel = "sentinel-" + UUID.randomUUID();
      app.set(sentinel, 300);
      assertThat(fires(sentinel, 1)).as("starts once that engine is gone").isEqualTo(1);
    } finally {
      deployer.undeploy(APPLICATION);
      deployer.undeploy(WRITER);
      controller.stop(CONTAINER);
    }
  }

  private static ReminderRecord pending(String key, long version, Instant due) {
    return VersionMergeTest.live(ReminderId.of(NAMESPACE, key), version, due);
  }

  private void writeAsEarlierBuild(ReminderRecord record) throws Exception {
    String value = CacheValues.toCache(ReminderCodec.encode(record));
    int status =
        writer.put("earlier-build/reminders/" + ProbeClient.segment(record.id().cacheKey()), value);
    assertThat(status).as("written as an earlier build: %s", record.id()).isEqualTo(204);
  }

  private String get(String key) throws Exception {
    return app.body("upgrade/reminders/" + NAMESPACE + "/" + key);
  }

  private int fires(String key, int atLeast) throws Exception {
    return app.fires(key, atLeast, WAIT);
  }
}
