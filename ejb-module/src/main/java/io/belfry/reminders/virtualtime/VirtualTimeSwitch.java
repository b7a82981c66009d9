package io.belfry.reminders.virtualtime;

import java.util.Arrays;

/**
 * Whether a deployment runs on virtual time: only when the server was started with the system
 * property {@value #PROPERTY} naming that application (its {@code java:app/AppName}: a WAR's name
 * without {@code .war}, an EAR's name), for example {@code -Dbelfry.virtual-time=cart}. Several
 * names are separated by commas. There is no wildcard and no default: a server where the property
 * is not set, which every configuration Belfry ships is, runs every deployment on the real clock.
 */
public final class VirtualTimeSwitch {

  public static final String PROPERTY = "belfry.virtual-time";

  private VirtualTimeSwitch() {}

  /** Whether the server was started with {@value #PROPERTY}, naming any application. */
  public static boolean isSet() {
    String property = System.getProperty(PROPERTY);
    return property != null && !property.isBlank();
  }

  /** Whether the server's {@value #PROPERTY} names {@code applicationName}. */
  public static boolean enabledFor(String applicationName) {
    return enabledFor(System.getProperty(PROPERTY), applicationName);
  }

  static boolean enabledFor(String property, String applicationName) {
    if (property == null || applicationName == null || applicationName.isBlank()) {
      return false;
    }
    return Arrays.stream(property.split(",")).map(String::trim).anyMatch(applicationName::equals);
  }
}
