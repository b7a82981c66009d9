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
 * A token is looked up by its SHA-256 ({@link KnownTokens} remembers what was found); its last use
 * is written at most once per {@link #TOUCH_EVERY} per node, so that a busy client does not turn
 * every request into a write.
 */
final class TokenRows {

  static final Duration TOUCH_EVERY = Duration.ofMinutes(1);

  // an expired token is as unknown as a revoked one: the same 401, nothing to tell apart
  private static final String FIND =
      "SELECT id, name, roles, expires_at FROM belfry_api_token"
          + " WHERE token_hash = ? AND (expires_at IS NULL OR expires_at > ?)";
  private static final String TOUCH = "UPDATE belfry_api_token SET last_used_at = ? WHERE id = ?";

  /** A token as found: its id, name, roles and expiry ({@code null}: until revoked). */
  record StoredToken(String id, String name, List<String> roles, Instant expiresAt) {}

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

  /** The unexpired token whose hash is {@code hash}, read from the table. */
  Optional<StoredToken> find(String hash) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement query = c.prepareStatement(FIND)) {
      query.setString(1, hash);
      query.setObject(2, OffsetDateTime.now(ZoneOffset.UTC));
      try (ResultSet row = query.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        OffsetDateTime expiresAt = row.getObject(4, OffsetDateTime.class);
        return Optional.of(
            new StoredToken(
                row.getString(1),
                row.getString(2),
                Arrays.stream(row.getString(3).split(",")).map(String::trim).toList(),
                expiresAt == null ? null : expiresAt.toInstant()));
      }
    }
  }

  /** Records a use of the token, at most once per {@link #TOUCH_EVERY} per node. */
  void touch(String id) throws SQLException {
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
