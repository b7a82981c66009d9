package io.belfry.audit;

import io.belfry.reminders.fire.ResurrectionGuard;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderState;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The {@link ResurrectionGuard} on the audit archive. A version is outlived when the archive has,
 * for its key, a newer version (a set or replace the store lost), or a row saying how that very
 * version ended: {@code FIRED} (or {@code DELIVERY_FAILED}, which follows a committed fire), {@code
 * SKIPPED}, {@code CANCELLED}, or {@code TOMBSTONE_PURGED}. Versions are unique per key across the
 * cluster (hybrid logical clock), so no other row can say so by mistake.
 *
 * <p>When rows disagree, a newer row that ended, replaced or parked the key ({@link #ENDS_KEY})
 * says the most: the scheduler moves a recurring reminder whose very occurrence fired on to its
 * next one, which must not revive a series cancelled after it. Then the fire or skip of the very
 * version; then its cancel or purge; a newer row of a later occurrence (the series went on) least.
 *
 * <p>One query per namespace and chunk of keys, with a timeout so that a hanging database cannot
 * stall the scheduler for long. What the retention purge has deleted can no longer stop a
 * resurrection.
 */
@ApplicationScoped
public class AuditResurrectionGuard implements ResurrectionGuard {

  /** Keys per query: a short lookup each, well inside the query timeout. */
  static final int CHUNK = 200;

  private static final int QUERY_TIMEOUT_SECONDS = 2;

  /**
   * The rows of a chunk's keys: the keys come as one array, joined to the archive so that each is
   * an index lookup on {@code (namespace, reminder_key, ...)}. Not {@code reminder_key IN (?, ?,
   * ...)}: H2 looks up an IN list only on an index's first column, so on that index it read every
   * row of the namespace, seconds per chunk on an archive of a million rows, and the guard timed
   * out on a restart onto a large backlog (docs/performance/rest-door.md). H2 2.x and PostgreSQL
   * both take {@code UNNEST} of an array parameter.
   */
  static final String ROWS_OF_KEYS =
      "SELECT a.reminder_key, a.type, a.version FROM UNNEST(?) AS k(reminder_key)"
          + " JOIN belfry_audit a ON a.namespace = ? AND a.reminder_key = k.reminder_key"
          + " WHERE a.version >= ?";

  /**
   * Rows of a newer version after which the key must not go on from an older one: a new set or
   * replace (the old series is gone), a cancel or a purged tombstone (it ended), a dead letter (it
   * waits for an operator).
   */
  static final Set<String> ENDS_KEY =
      Set.of("SET", "REPLACED", "CANCELLED", "TOMBSTONE_PURGED", "DEAD_LETTERED");

  @Resource(lookup = AuditDatabase.DATASOURCE)
  private DataSource dataSource;

  /** For CDI, which injects {@code BelfryDS}. */
  public AuditResurrectionGuard() {}

  /** On a given datasource, outside the container (unit tests, benchmarks). */
  public AuditResurrectionGuard(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public Map<ReminderId, ReminderState> outlived(List<Candidate> candidates) {
    Map<String, List<Candidate>> byNamespace = new LinkedHashMap<>();
    for (Candidate candidate : candidates) {
      byNamespace
          .computeIfAbsent(candidate.id().namespace(), ns -> new ArrayList<>())
          .add(candidate);
    }
    Map<ReminderId, ReminderState> outlived = new HashMap<>();
    try (Connection connection = dataSource.getConnection()) {
      for (Map.Entry<String, List<Candidate>> namespace : byNamespace.entrySet()) {
        List<Candidate> all = namespace.getValue();
        for (int from = 0; from < all.size(); from += CHUNK) {
          judge(
              connection,
              namespace.getKey(),
              all.subList(from, Math.min(all.size(), from + CHUNK)),
              outlived);
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("the audit archive cannot be read: " + e.getMessage(), e);
    }
    return Collections.unmodifiableMap(outlived);
  }

  @SuppressWarnings("try") // the QueryTimeout resource is used by being closed
  private void judge(
      Connection connection,
      String namespace,
      List<Candidate> chunk,
      Map<ReminderId, ReminderState> outlived)
      throws SQLException {
    Map<String, Candidate> byKey = new HashMap<>();
    Map<ReminderId, Integer> weights = new HashMap<>();
    long oldest = Long.MAX_VALUE;
    for (Candidate candidate : chunk) {
      byKey.put(candidate.id().key(), candidate);
      oldest = Math.min(oldest, candidate.version());
    }
    try (PreparedStatement select = connection.prepareStatement(ROWS_OF_KEYS);
        QueryTimeout limit = QueryTimeout.of(select, QUERY_TIMEOUT_SECONDS)) {
      select.setArray(1, connection.createArrayOf("VARCHAR", byKey.keySet().toArray()));
      select.setString(2, namespace);
      select.setLong(3, oldest);
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          Candidate candidate = byKey.get(rows.getString(1));
          String type = rows.getString(2);
          long version = rows.getLong(3);
          ReminderState end = verdict(candidate.version(), type, version);
          if (end != null) {
            int weight = weight(candidate.version(), type, version, end);
            Integer before = weights.get(candidate.id());
            if (before == null || weight > before) {
              weights.put(candidate.id(), weight);
              outlived.put(candidate.id(), end);
            }
          }
        }
      }
    }
  }

  /** How this row says the candidate's version ended; null if it does not. */
  static ReminderState verdict(long candidateVersion, String type, long version) {
    if (version > candidateVersion) {
      return ReminderState.CANCELLED;
    }
    if (version < candidateVersion) {
      return null;
    }
    return switch (type) {
      case "FIRED", "DELIVERY_FAILED", "DELIVERED" -> ReminderState.FIRED;
      case "SKIPPED" -> ReminderState.SKIPPED;
      case "CANCELLED", "TOMBSTONE_PURGED" -> ReminderState.CANCELLED;
      // SET and REPLACED say the version was live; an at-least-once delivery that is under way,
      // retried or dead-lettered (DELIVERING, RETRY_SCHEDULED, DEAD_LETTERED, REDELIVERY_REQUESTED)
      // is owed another attempt, which a resurrected copy may give
      default -> null;
    };
  }

  /** How much a row's verdict says when the rows of a key disagree; see the class comment. */
  static int weight(long candidateVersion, String type, long version, ReminderState end) {
    if (version > candidateVersion) {
      return ENDS_KEY.contains(type) ? 3 : 0;
    }
    return end == ReminderState.CANCELLED ? 1 : 2;
  }
}
