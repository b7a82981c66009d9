package io.belfry.realm;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Reads a user and its roles from the tables {@code belfry.war} creates ({@code belfry_user},
 * {@code belfry_user_role}; migration {@code db/belfry-security/V1__users.sql}): the same two
 * queries the jdbc-realm this replaces ran.
 */
final class UserRows {

  private static final String USER =
      "SELECT password_hash, password_salt, iterations FROM belfry_user WHERE name = ?";
  private static final String ROLES = "SELECT role FROM belfry_user_role WHERE name = ?";

  private final DataSource dataSource;

  UserRows(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  Optional<StoredUser> find(String name) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      String hash;
      String salt;
      int cost;
      try (PreparedStatement user = c.prepareStatement(USER)) {
        user.setString(1, name);
        try (ResultSet row = user.executeQuery()) {
          if (!row.next()) {
            return Optional.empty();
          }
          hash = row.getString(1);
          salt = row.getString(2);
          cost = row.getInt(3);
        }
      }
      List<String> roles = new ArrayList<>();
      try (PreparedStatement query = c.prepareStatement(ROLES)) {
        query.setString(1, name);
        try (ResultSet rows = query.executeQuery()) {
          while (rows.next()) {
            roles.add(rows.getString(1));
          }
        }
      }
      return Optional.of(new StoredUser(name, hash, salt, cost, List.copyOf(roles)));
    }
  }
}
