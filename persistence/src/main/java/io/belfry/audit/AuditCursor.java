package io.belfry.audit;

import java.time.Instant;
import java.util.Objects;

/**
 * The position after the last record of a page, newest first: event time, then id to break ties. As
 * text ({@link #toString()}, {@link #parse}) it is {@code epochSeconds.nanos.id}, for REST query
 * parameters.
 */
public record AuditCursor(Instant eventAt, long id) {

  public AuditCursor {
    Objects.requireNonNull(eventAt, "eventAt");
  }

  public static AuditCursor after(AuditRecord last) {
    return new AuditCursor(last.eventAt(), last.id());
  }

  public static AuditCursor parse(String text) {
    String[] parts = text.split("\\.");
    if (parts.length != 3) {
      throw new IllegalArgumentException("not an audit cursor: " + text);
    }
    return new AuditCursor(
        Instant.ofEpochSecond(Long.parseLong(parts[0]), Long.parseLong(parts[1])),
        Long.parseLong(parts[2]));
  }

  @Override
  public String toString() {
    return eventAt.getEpochSecond() + "." + eventAt.getNano() + "." + id;
  }
}
