package io.belfry.web.foundation;

import com.cronutils.parser.CronParser;
import io.belfry.reminders.api.Reminders;
import java.io.File;
import java.net.URISyntaxException;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** Test deployments built from the real artifact of this module, so tests see what users run. */
public final class Deployments {

  private Deployments() {}

  /** {@code target/belfry.war} as packaged by this build, deployed at {@code /belfry}. */
  public static WebArchive belfryWar() {
    File war = new File("target/belfry.war");
    if (!war.isFile()) {
      throw new IllegalStateException(war.getAbsolutePath() + " is missing: run the package phase");
    }
    return ShrinkWrap.createFromZipFile(WebArchive.class, war);
  }

  /**
   * An application WAR exactly as docs/user-guide.md has one built: the {@code belfry-ejb} jar of
   * this build and cron-utils in {@code WEB-INF/lib}, an empty {@code beans.xml}, the guide's
   * manifest line, and the application's {@code classes}; no audit module.
   */
  public static WebArchive application(String name, Class<?>... classes) {
    return ShrinkWrap.create(WebArchive.class, name + ".war")
        .addAsLibraries(jarOf(Reminders.class, "belfry-ejb.jar"), jarOf(CronParser.class, null))
        .addClasses(classes)
        .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
        .setManifest(
            new StringAsset(
                "Manifest-Version: 1.0\n"
                    + "Dependencies: org.infinispan.core, org.infinispan.commons,"
                    + " org.infinispan.protostream\n"));
  }

  /** The jar a class comes from; a directory of classes (a module of this reactor) as a jar. */
  private static JavaArchive jarOf(Class<?> type, String nameIfDirectory) {
    try {
      File location = new File(type.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (location.isDirectory()) {
        return ShrinkWrap.create(JavaArchive.class, nameIfDirectory)
            .as(ExplodedImporter.class)
            .importDirectory(location)
            .as(JavaArchive.class);
      }
      return ShrinkWrap.createFromZipFile(JavaArchive.class, location);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
