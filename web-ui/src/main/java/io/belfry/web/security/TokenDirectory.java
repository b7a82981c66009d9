package io.belfry.web.security;

import io.belfry.audit.AuditDatabase;
import io.belfry.realm.TokenRevocations;
import io.belfry.reminders.api.InvalidReminderException;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.Validator;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * API tokens in {@code belfry_api_token} of {@code BelfryDS}: created and revoked here, checked by
 * the realm ({@code io.belfry.realm}) on every request that sends {@code Authorization: Bearer}. A
 * token is 256 random bits, shown once at creation; only its SHA-256 is stored.
 */
@ApplicationScoped
public class TokenDirectory {

  /** Marks Belfry's tokens, so that a leaked one is recognisable (e.g. by secret scanners). */
  static final String PREFIX = "bft_";

  private static final SecureRandom RANDOM = new SecureRandom();

  private static final int REMEMBERED_TOKENS = 10_000;

  private final Map<String, Set<String>> boundNamespaces = new ConcurrentHashMap<>();

  @Resource(lookup = AuditDatabase.DATASOURCE)
  DataSource dataSource;

  @Inject Validator validator;

  @Inject RevokedTokens revocations;

  /**
   * A token as listed: never the token itself. {@code namespaces} is empty for a token that may
   * reach every namespace; {@code expiresAt} is {@code null} for one that lasts until revoked.
   */
  public record Token(
      String id,
      String name,
      List<String> roles,
      List<String> namespaces,
      Instant expiresAt,
      Instant createdAt,
      String createdBy,
      Instant lastUsedAt) {}

  /** A token just created, with its secret, which nobody can see again. */
  public record Created(Token token, String secret) {}

  /**
   * Creates a token.
   *
   * @throws InvalidReminderException if the request breaks a rule; nothing changed
   */
  public Created create(TokenRequest request, String createdBy) throws SQLException {
    JsonFields.validate(validator, request);
    byte[] random = new byte[32];
    RANDOM.nextBytes(random);
    String secret = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    String id = UUID.randomUUID().toString();
    List<String> roles = List.copyOf(new TreeSet<>(request.roles()));
    List<String> namespaces =
        request.namespaces() == null ? List.of() : List.copyOf(new TreeSet<>(request.namespaces()));
    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
    try (Connection c = dataSource.getConnection();
        PreparedStatement insert =
            c.prepareStatement(
                "INSERT INTO belfry_api_token (id, name, token_hash, roles, created_at,"
                    + " created_by, namespaces, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      insert.setString(1, id);
      insert.setString(2, request.name());
      insert.setString(3, TokenRevocations.hashOf(secret));
      insert.setString(4, String.join(",", roles));
      insert.setObject(5, now);
      insert.setString(6, createdBy);
      insert.setString(7, namespaces.isEmpty() ? null : String.join(",", namespaces));
      insert.setObject(
          8,
          request.expiresAt() == null ? null : request.expiresAt().atOffset(ZoneOffset.UTC),
          Types.TIMESTAMP_WITH_TIMEZONE);
      insert.executeUpdate();
    }
    return new Created(
        new Token(
            id,
            request.name(),
            roles,
            namespaces,
            request.expiresAt(),
            now.toInstant(),
            createdBy,
            null),
        secret);
  }

  public List<Token> list() throws SQLException {
    List<Token> tokens = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement select =
            c.prepareStatement(
                "SELECT id, name, roles, namespaces, expires_at, created_at, created_by,"
                    + " last_used_at FROM belfry_api_token ORDER BY name, created_at");
        ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        tokens.add(
            new Token(
                rows.getString(1),
                rows.getString(2),
                commaSeparated(rows.getString(3)),
                commaSeparated(rows.getString(4)),
                instant(rows.getObject(5, OffsetDateTime.class)),
                rows.getObject(6, OffsetDateTime.class).toInstant(),
                rows.getString(7),
                instant(rows.getObject(8, OffsetDateTime.class))));
      }
    }
    return tokens;
  }

  /**
   * The namespaces a token may reach, found by the token itself; empty for a token that may reach
   * every namespace, or for an unknown one (the realm has already refused those). A token's
   * namespaces never change, so they are remembered by its hash: a revoked token is refused by the
   * realm before this is asked.
   */
  public Set<String> namespacesOf(String secret) throws SQLException {
    String hash = TokenRevocations.hashOf(secret);
    Set<String> known = boundNamespaces.get(hash);
    if (known != null) {
      return known;
    }
    Set<String> found = Set.of();
    try (Connection c = dataSource.getConnection();
        PreparedStatement select =
            c.prepareStatement("SELECT namespaces FROM belfry_api_token WHERE token_hash = ?")) {
      select.setString(1, hash);
      try (ResultSet row = select.executeQuery()) {
        if (row.next()) {
          found = Set.copyOf(commaSeparated(row.getString(1)));
        }
      }
    }
    if (boundNamespaces.size() >= REMEMBERED_TOKENS) {
      boundNamespaces.clear(); // a bound on memory; a forgotten token costs one more query
    }
    boundNamespaces.put(hash, found);
    return found;
  }

  private static List<String> commaSeparated(String column) {
    return column == null ? List.of() : Arrays.asList(column.split(","));
  }

  private static Instant instant(OffsetDateTime column) {
    return column == null ? null : column.toInstant();
  }

  /**
   * Revokes a token: its next request is refused, on every node (the row goes, then every member's
   * realm forgets the token: {@link RevokedTokens}). Returns whether it existed.
   */
  public boolean revoke(String id) throws SQLException {
    String hash;
    try (Connection c = dataSource.getConnection();
        PreparedStatement select =
            c.prepareStatement("SELECT token_hash FROM belfry_api_token WHERE id = ?");
        PreparedStatement delete =
            c.prepareStatement("DELETE FROM belfry_api_token WHERE id = ?")) {
      select.setString(1, id);
      try (ResultSet row = select.executeQuery()) {
        if (!row.next()) {
          return false;
        }
        hash = row.getString(1);
      }
      delete.setString(1, id);
      if (delete.executeUpdate() == 0) {
        return false; // revoked meanwhile by another request, which announced it
      }
    }
    revocations.announce(hash);
    return true;
  }
}
