package io.belfry.web.security;

import java.util.Set;

/** The two roles of the API and the console; the realm reads them from {@code belfry_user_role}. */
public final class Roles {

  /** Reads everything: reminders, audit, cluster. */
  public static final String VIEWER = "belfry-viewer";

  /** Everything a viewer can, plus set, replace and cancel reminders and manage users. */
  public static final String ADMIN = "belfry-admin";

  public static final Set<String> ALL = Set.of(VIEWER, ADMIN);

  /** A role name as a request gives it: one of the two (users' and tokens' rule). */
  static final String PATTERN = VIEWER + "|" + ADMIN;

  static final String PATTERN_MESSAGE = "must be " + VIEWER + " or " + ADMIN;

  /** A user's or token's name: 1–128 characters that never need escaping in a URL or a log. */
  static final String NAME_PATTERN = "[A-Za-z0-9._@-]{1,128}";

  static final String NAME_MESSAGE = "must be 1 to 128 characters of A-Z a-z 0-9 . _ @ -";

  private Roles() {}
}
