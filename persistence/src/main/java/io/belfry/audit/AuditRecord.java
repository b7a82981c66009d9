package io.belfry.audit;

import io.belfry.reminders.api.ReminderActivity;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * One archived activity, as the queries read it. Rows are written by {@link AuditRows} with JDBC
 * (batching, idempotence); this entity is read-only by convention and its table is defined by the
 * Flyway migrations, not by Hibernate.
 */
@Entity
@Table(name = "belfry_audit")
public class AuditRecord {

  @Id private long id;

  @Column(name = "activity_id", nullable = false, updatable = false)
  private String activityId;

  @Enumerated(EnumType.STRING)
  @Column(nullable = false, updatable = false)
  private ReminderActivity.Type type;

  @Column(nullable = false, updatable = false)
  private String namespace;

  @Column(name = "reminder_key", nullable = false, updatable = false)
  private String key;

  @Column(nullable = false, updatable = false)
  private long version;

  @Column(nullable = false, updatable = false)
  private long occurrence;

  @Column(name = "due_at", updatable = false)
  private Instant dueAt;

  @Column(name = "event_at", nullable = false, updatable = false)
  private Instant eventAt;

  @Column(name = "lateness_ms", updatable = false)
  private Long latenessMillis;

  @Column(nullable = false, updatable = false)
  private String node;

  private String principal;

  @Column(updatable = false)
  private String detail;

  protected AuditRecord() {}

  public long id() {
    return id;
  }

  public String activityId() {
    return activityId;
  }

  public ReminderActivity.Type type() {
    return type;
  }

  public String namespace() {
    return namespace;
  }

  public String key() {
    return key;
  }

  public long version() {
    return version;
  }

  public long occurrence() {
    return occurrence;
  }

  public Instant dueAt() {
    return dueAt;
  }

  public Instant eventAt() {
    return eventAt;
  }

  /** For a fire, how late it was in milliseconds; {@code null} otherwise. */
  public Long latenessMillis() {
    return latenessMillis;
  }

  public String node() {
    return node;
  }

  /** Who made the change through the API or console; {@code null} for the engine's own events. */
  public String principal() {
    return principal;
  }

  public String detail() {
    return detail;
  }

  @Override
  public String toString() {
    return type + " " + namespace + "/" + key + " v" + version + " #" + occurrence + " @" + eventAt;
  }
}
