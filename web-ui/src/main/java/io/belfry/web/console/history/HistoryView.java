package io.belfry.web.console.history;

import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.belfry.audit.AuditQueries;
import io.belfry.audit.AuditRecord;
import io.belfry.web.console.MainLayout;
import io.belfry.web.console.Routes;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * A reminder's life from the audit archive, across all its versions, oldest first: set, replaced,
 * fired (with lateness), failed, skipped, cancelled, purged. {@code ?namespace=…&key=…}.
 */
@Route(value = Routes.HISTORY, layout = MainLayout.class)
@PageTitle("History · Belfry")
@Dependent
public class HistoryView extends VerticalLayout implements BeforeEnterObserver {

  private static final long serialVersionUID = 1L;
  private static final DateTimeFormatter WHEN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS 'UTC'").withZone(ZoneOffset.UTC);

  private final AuditQueries audit;
  private final H2 title = new H2();
  private final Paragraph note = new Paragraph();
  private final Grid<AuditRecord> timeline = new Grid<>();

  @Inject
  public HistoryView(AuditQueries audit) {
    this.audit = audit;
    setSizeFull();
    timeline.setId("history");
    timeline.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
    timeline.addColumn(r -> WHEN.format(r.eventAt())).setHeader("When").setAutoWidth(true);
    timeline.addColumn(r -> r.type().name()).setHeader("What").setAutoWidth(true);
    timeline.addColumn(AuditRecord::version).setHeader("Version").setAutoWidth(true);
    timeline.addColumn(AuditRecord::occurrence).setHeader("Occurrence").setAutoWidth(true);
    timeline
        .addColumn(r -> r.dueAt() == null ? "" : WHEN.format(r.dueAt()))
        .setHeader("Due")
        .setAutoWidth(true);
    timeline
        .addColumn(r -> r.latenessMillis() == null ? "" : r.latenessMillis() + " ms")
        .setHeader("Lateness")
        .setAutoWidth(true);
    timeline.addColumn(AuditRecord::node).setHeader("Node").setAutoWidth(true);
    timeline
        .addColumn(r -> r.principal() == null ? "" : r.principal())
        .setHeader("By")
        .setAutoWidth(true);
    timeline
        .addColumn(r -> r.detail() == null ? "" : r.detail())
        .setHeader("Detail")
        .setFlexGrow(1);
    timeline.setEmptyStateText("Nothing archived for this reminder yet.");
    add(title, note, timeline);
  }

  @Override
  public void beforeEnter(BeforeEnterEvent event) {
    var parameters = event.getLocation().getQueryParameters().getParameters();
    String namespace = first(parameters.get("namespace"));
    String key = first(parameters.get("key"));
    if (namespace == null || key == null) {
      title.setText("History");
      note.setText("Open a reminder's history from the Reminders view.");
      timeline.setItems(List.of());
      return;
    }
    title.setText(namespace + " / " + key);
    try {
      List<AuditRecord> records = audit.history(namespace, key);
      note.setText(records.size() + " events, oldest first");
      timeline.setItems(records);
    } catch (PersistenceException e) {
      note.setText("The audit database is not available right now; try again later.");
      timeline.setItems(List.of());
    }
  }

  private static String first(List<String> values) {
    return values == null || values.isEmpty() ? null : values.get(0);
  }
}
