package io.belfry.realm;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * API tokens in {@code belfry_api_token} (migrations {@code db/belfry-security/V2__api_tokens.sql}
 * and {@code V3__api_token_scope.sql} of {@code belfry.war}, which also creates and revokes them).
 * A token is looked up by its SHA-256 on every request, so a revoked or expired token is refused on
 * its next request on every node; its last use is written at most once per {@link #TOUCH_EVERY} per
 * node, so that a busy client does not turn every request into a write.
 */
final class TokenRows {

  static final Duration TOUCH_EVERY = Duration.ofMinutes(1);

  // an expired token is as unknown as a revoked one: the same 401, nothing to tell apart
  private static final String FIND =
      "SELECT id, name, roles FROM belfry_api_token"
          + " WHERE token_hash = ? AND (expires_at IS NULL OR expires_at > ?)";
  private static final String TOUCH = "UPDATE belfry_api_token SET last_used_at = ? WHERE id = ?";

  /** A token as found: its id, name and roles. */
  record StoredToken(String id, String name, List<String> roles) {}

  private final DataSource dataSource;
  private final Map<String, Instant> touched = new ConcurrentHashMap<>();

  TokenRows(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** The SHA-256 of a token, lowercase hex: what the table stores. */
  static String hash(String token) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  Optional<StoredToken> find(String token) throws SQLException {
    StoredToken found;
    try (Connection c = dataSource.getConnection();
        PreparedStatement query = c.prepareStatement(FIND)) {
      query.setString(1, hash(token));
      query.setObject(2, OffsetDateTime.now(ZoneOffset.UTC));
      try (ResultSet row = query.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        found =
            new StoredToken(
                row.getString(1),
                row.getString(2),
                Arrays.stream(row.getString(3).split(",")).map(String::trim).toList());
      }
    }
    touch(found.id());
    return Optional.of(found);
  }

  private void touch(String id) throws SQLException {
    Instant now = Instant.now();
    Instant last = touched.get(id);
    if (last != null && last.plus(TOUCH_EVERY).isAfter(now)) {
      return;
    }
    touched.put(id, now);
    try (Connection c = dataSource.getConnection();
        PreparedStatement update = c.prepareStatement(TOUCH)) {
      update.setTimestamp(1, Timestamp.from(now));
      update.setString(2, id);
      update.executeUpdate();
    }
  }
}
