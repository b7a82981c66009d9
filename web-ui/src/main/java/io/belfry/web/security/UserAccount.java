package io.belfry.web.security;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.Set;

/**
 * A user to create or update, as the API and the console take it; Bean Validation checks it.
 *
 * @param name 1–128 characters of {@code A-Z a-z 0-9 . _ @ -}
 * @param password 12–128 characters
 * @param roles one or both of {@link Roles#VIEWER} and {@link Roles#ADMIN}
 */
public record UserAccount(
    @NotNull(message = "is required")
        @Pattern(regexp = Roles.NAME_PATTERN, message = Roles.NAME_MESSAGE)
        String name,
    @NotNull(message = "is required")
        @Size(min = 12, max = 128, message = "must be 12 to 128 characters")
        String password,
    @NotEmpty(message = "must name at least one role")
        Set<
                @NotNull(message = "must not be null")
                @Pattern(regexp = Roles.PATTERN, message = Roles.PATTERN_MESSAGE) String>
            roles) {

  public UserAccount {
    roles = roles == null ? null : Set.copyOf(roles);
  }

  @Override
  public String toString() {
    return "UserAccount[name=" + name + ", roles=" + roles + "]";
  }
}
