package io.belfry.audit.it;

import com.cronutils.parser.CronParser;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.belfry.reminders.api.Reminders;
import java.io.File;
import java.net.URISyntaxException;
import org.flywaydb.core.Flyway;
import org.flywaydb.database.postgresql.PostgreSQLDatabaseType;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * An application with the audit, as web-ui bundles it: the engine jar, this module's jar (as
 * compiled, with its persistence unit and migrations) and Flyway with its dependencies in
 * WEB-INF/lib, the manifest entry for the server's Infinispan, and the given classes.
 */
final class AuditDeployments {

  private AuditDeployments() {}

  static WebArchive application(String name, Class<?>... classes) {
    JavaArchive audit =
        ShrinkWrap.create(JavaArchive.class, "belfry-persistence.jar")
            .as(ExplodedImporter.class)
            .importDirectory(new File("target/classes"))
            .as(JavaArchive.class);
    return ShrinkWrap.create(WebArchive.class, name + ".war")
        .addAsLibraries(
            library(Reminders.class, "belfry-ejb.jar"),
            audit,
            library(CronParser.class, null),
            library(Flyway.class, null),
            library(PostgreSQLDatabaseType.class, null),
            library(ObjectMapper.class, null),
            library(JsonFactory.class, null),
            library(JsonProperty.class, null))
        .addClasses(classes)
        .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
        .setManifest(
            new StringAsset(
                "Manifest-Version: 1.0\n"
                    + "Dependencies: org.infinispan.core, org.infinispan.commons,"
                    + " org.infinispan.protostream\n"));
  }

  // The jar (or, in a reactor build, the classes folder) a class was loaded from.
  private static JavaArchive library(Class<?> type, String nameIfFolder) {
    try {
      File location = new File(type.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (location.isDirectory()) {
        return ShrinkWrap.create(JavaArchive.class, nameIfFolder)
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
