package io.belfry.audit;

import java.util.List;

/**
 * One page of audit records, newest first.
 *
 * @param next the cursor of the following page, or {@code null} on the last page
 */
public record AuditPage(List<AuditRecord> records, AuditCursor next) {

  public AuditPage {
    records = List.copyOf(records);
  }

  public boolean hasNext() {
    return next != null;
  }
}
