package io.belfry.audit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the audit archive for the REST API and the console. Pages are found by keyset (event time,
 * then id, both descending), so a page costs the same whether it is the first or the thousandth and
 * rows written meanwhile never shift it; the indexes of V1 serve each filter combination.
 */
@ApplicationScoped
public class AuditQueries {

  @PersistenceContext(unitName = "belfry-audit")
  EntityManager entities;

  /** One page of the records matching {@code query}, newest first. */
  public AuditPage list(AuditQuery query) {
    StringBuilder jpql = new StringBuilder("SELECT r FROM AuditRecord r WHERE 1 = 1");
    Map<String, Object> parameters = new LinkedHashMap<>();
    if (query.namespace() != null) {
      jpql.append(" AND r.namespace = :namespace");
      parameters.put("namespace", query.namespace());
    }
    if (query.key() != null) {
      jpql.append(" AND r.key = :key");
      parameters.put("key", query.key());
    }
    if (query.type() != null) {
      jpql.append(" AND r.type = :type");
      parameters.put("type", query.type());
    }
    if (query.from() != null) {
      jpql.append(" AND r.eventAt >= :from");
      parameters.put("from", query.from());
    }
    if (query.until() != null) {
      jpql.append(" AND r.eventAt < :until");
      parameters.put("until", query.until());
    }
    if (query.cursor() != null) {
      jpql.append(" AND (r.eventAt < :cursorAt OR (r.eventAt = :cursorAt AND r.id < :cursorId))");
      parameters.put("cursorAt", query.cursor().eventAt());
      parameters.put("cursorId", query.cursor().id());
    }
    jpql.append(" ORDER BY r.eventAt DESC, r.id DESC");
    TypedQuery<AuditRecord> select = entities.createQuery(jpql.toString(), AuditRecord.class);
    parameters.forEach(select::setParameter);
    // one more than asked tells whether another page follows, without a COUNT
    List<AuditRecord> found = select.setMaxResults(query.limit() + 1).getResultList();
    if (found.size() <= query.limit()) {
      return new AuditPage(found, null);
    }
    List<AuditRecord> page = new ArrayList<>(found.subList(0, query.limit()));
    return new AuditPage(page, AuditCursor.after(page.get(page.size() - 1)));
  }

  /**
   * A reminder's whole life, every version, oldest first (event time, then write order), in one
   * query. Bounded by {@link AuditQuery#MAX_LIMIT} records; use {@link #list} with a key filter to
   * page through a longer one.
   */
  public List<AuditRecord> history(String namespace, String key) {
    return entities
        .createQuery(
            "SELECT r FROM AuditRecord r WHERE r.namespace = :namespace AND r.key = :key"
                + " ORDER BY r.eventAt, r.id",
            AuditRecord.class)
        .setParameter("namespace", namespace)
        .setParameter("key", key)
        .setMaxResults(AuditQuery.MAX_LIMIT)
        .getResultList();
  }
}
