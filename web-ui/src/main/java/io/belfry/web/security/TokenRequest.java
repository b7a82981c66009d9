package io.belfry.web.security;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.util.Set;

/**
 * An API token to create, as {@code POST /tokens} takes it; Bean Validation checks it with the same
 * name and role rules as a user's.
 *
 * @param name 1–128 characters of {@code A-Z a-z 0-9 . _ @ -}, e.g. the client it is for
 * @param roles one or both of {@link Roles#VIEWER} and {@link Roles#ADMIN}
 */
public record TokenRequest(
    @NotNull(message = "is required")
        @Pattern(regexp = Roles.NAME_PATTERN, message = Roles.NAME_MESSAGE)
        String name,
    @NotEmpty(message = "must name at least one role")
        Set<
                @NotNull(message = "must not be null")
                @Pattern(regexp = Roles.PATTERN, message = Roles.PATTERN_MESSAGE) String>
            roles) {

  public TokenRequest {
    roles = roles == null ? null : Set.copyOf(roles);
  }
}
