package io.belfry.reminders.it;

import com.cronutils.parser.CronParser;
import java.io.File;
import java.net.URISyntaxException;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * An application as a user builds one: a WAR with the Belfry engine jar (this module's classes, as
 * compiled) and cron-utils in WEB-INF/lib, the manifest entry for the server's Infinispan, and the
 * given classes of the application itself.
 */
final class EngineDeployments {

  private EngineDeployments() {}

  static WebArchive application(String name, Class<?>... classes) {
    JavaArchive engine =
        ShrinkWrap.create(JavaArchive.class, "belfry-ejb.jar")
            .as(ExplodedImporter.class)
            .importDirectory(new File("target/classes"))
            .as(JavaArchive.class);
    return ShrinkWrap.create(WebArchive.class, name + ".war")
        .addAsLibraries(engine, jarOf(CronParser.class))
        .addClasses(classes)
        .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
        .setManifest(
            new StringAsset(
                "Manifest-Version: 1.0\n"
                    + "Dependencies: org.infinispan.core, org.infinispan.commons,"
                    + " org.infinispan.protostream\n"));
  }

  private static JavaArchive jarOf(Class<?> type) {
    try {
      File jar = new File(type.getProtectionDomain().getCodeSource().getLocation().toURI());
      return ShrinkWrap.createFromZipFile(JavaArchive.class, jar);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
