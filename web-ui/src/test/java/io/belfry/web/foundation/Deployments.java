package io.belfry.web.foundation;

import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
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
}
