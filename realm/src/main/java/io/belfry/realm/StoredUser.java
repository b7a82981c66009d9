package io.belfry.realm;

import java.util.List;

/**
 * One row of {@code belfry_user} with its roles, as read for one authentication.
 *
 * @param hash the bcrypt hash, base64, as stored
 * @param salt the bcrypt salt, base64
 * @param cost the bcrypt cost (Elytron's iteration count)
 */
record StoredUser(String name, String hash, String salt, int cost, List<String> roles) {}
