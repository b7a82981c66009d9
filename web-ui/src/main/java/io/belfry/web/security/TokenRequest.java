package io.belfry.web.security;

import io.belfry.reminders.api.validation.ReminderNamespace;
import jakarta.validation.constraints.Future;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Instant;
import java.util.Set;

/**
 * An API token to create, as {@code POST /tokens} takes it; Bean Validation checks it with the same
 * name and role rules as a user's, and its namespaces with the rule of a reminder's namespace.
 *
 * @param name 1–128 characters of {@code A-Z a-z 0-9 . _ @ -}, e.g. the client it is for
 * @param roles one or both of {@link Roles#VIEWER} and {@link Roles#ADMIN}
 * @param namespaces the only namespaces the token may reach; {@code null}: every namespace
 * @param expiresAt when the token stops working; {@code null}: when it is revoked
 */
public record TokenRequest(
    @NotNull(message = "is required")
        @Pattern(regexp = Roles.NAME_PATTERN, message = Roles.NAME_MESSAGE)
        String name,
    @NotEmpty(message = "must name at least one role")
        Set<
                @NotNull(message = "must not be null")
                @Pattern(regexp = Roles.PATTERN, message = Roles.PATTERN_MESSAGE) String>
            roles,
    @Size(min = 1, max = 16, message = "must name 1 to 16 namespaces, or be left out for all")
        Set<@NotNull(message = "must not be null") @ReminderNamespace String> namespaces,
    @Future(message = "must be in the future") Instant expiresAt) {

  public TokenRequest {
    roles = roles == null ? null : Set.copyOf(roles);
    namespaces = namespaces == null ? null : Set.copyOf(namespaces);
  }

  /** A token for every namespace that never expires (until revoked). */
  public TokenRequest(String name, Set<String> roles) {
    this(name, roles, null, null);
  }
}
