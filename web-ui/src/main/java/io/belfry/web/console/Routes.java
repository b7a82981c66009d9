package io.belfry.web.console;

/** The console's route paths, in one place. */
public final class Routes {

  public static final String DASHBOARD = "";
  public static final String REMINDERS = "reminders";
  public static final String HISTORY = "history";
  public static final String CLUSTER = "cluster";
  public static final String SINK = "sink";
  public static final String TOKENS = "tokens";
  public static final String LOGIN = "login";

  private Routes() {}
}
