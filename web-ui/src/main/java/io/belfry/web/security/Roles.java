package io.belfry.web.security;

import java.util.Set;

/** The two roles of the API and the console; the realm reads them from {@code belfry_user_role}. */
public final class Roles {

  /** Reads everything: reminders, audit, cluster. */
  public static final String VIEWER = "belfry-viewer";

  /** Everything a viewer can, plus set, replace and cancel reminders and manage users. */
  public static final String ADMIN = "belfry-admin";

  public static final Set<String> ALL = Set.of(VIEWER, ADMIN);

  private Roles() {}
}
