package io.belfry.web.console.cluster;

import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.belfry.reminders.config.BelfryExecutor;
import io.belfry.reminders.placement.ClusterSnapshot;
import io.belfry.reminders.placement.ClusterStatus;
import io.belfry.web.console.LiveRefresh;
import io.belfry.web.console.MainLayout;
import io.belfry.web.console.Routes;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * The nodes of the reminders cache, their primary segments and armed reminders, and a strip of
 * every segment coloured by its owner. Refreshed every two seconds while open, by server push, so a
 * node joining or leaving shows up without a reload.
 */
@Route(value = Routes.CLUSTER, layout = MainLayout.class)
@PageTitle("Cluster · Belfry")
@Dependent
public class ClusterView extends VerticalLayout {

  private static final long serialVersionUID = 1L;
  static final long REFRESH_MILLIS = 2_000;
  private static final String[] COLOURS = {
    "#1676f3", "#e8590c", "#2b8a3e", "#ae3ec9", "#f59f00", "#0ca678", "#d6336c", "#495057"
  };

  private final ClusterStatus status;
  private final Grid<ClusterSnapshot.Member> members = new Grid<>();
  private final Div strip = new Div();
  private final Paragraph summary = new Paragraph();
  private List<String> lastOwners = List.of();

  @Inject
  public ClusterView(
      ClusterStatus status, @BelfryExecutor ManagedScheduledExecutorService scheduler) {
    this.status = status;
    members.setId("members");
    members.addColumn(ClusterSnapshot.Member::name).setHeader("Node");
    members.addColumn(ClusterSnapshot.Member::primarySegments).setHeader("Primary segments");
    members.addColumn(ClusterSnapshot.Member::armedReminders).setHeader("Armed reminders");
    members.setAllRowsVisible(true);
    strip.setId("segments");
    strip.getStyle().set("display", "flex").set("flex-wrap", "wrap").set("gap", "2px");
    summary.setId("cluster-summary");
    add(new H2("Cluster"), summary, members, new Span("Segments by primary owner"), strip);
    show(status.snapshot());
    LiveRefresh.whileAttached(this, scheduler, REFRESH_MILLIS, status::snapshot, this::show);
  }

  private void show(ClusterSnapshot snapshot) {
    summary.setText(
        snapshot.members().size()
            + " node(s), coordinator "
            + snapshot.coordinator()
            + ", "
            + snapshot.totalSegments()
            + " segments; this page is served by "
            + snapshot.node());
    members.setItems(snapshot.members());
    if (snapshot.segmentOwners().equals(lastOwners)) {
      return;
    }
    lastOwners = snapshot.segmentOwners();
    List<String> names =
        new ArrayList<>(snapshot.members().stream().map(ClusterSnapshot.Member::name).toList());
    strip.removeAll();
    for (int segment = 0; segment < snapshot.segmentOwners().size(); segment++) {
      String owner = snapshot.segmentOwners().get(segment);
      int index = names.indexOf(owner);
      Div cell = new Div();
      cell.getElement().setAttribute("title", "segment " + segment + ": " + owner);
      cell.getElement().setAttribute("data-owner", owner);
      cell.getStyle()
          .set("width", "10px")
          .set("height", "18px")
          .set("background", COLOURS[Math.floorMod(index, COLOURS.length)]);
      strip.add(cell);
    }
  }
}
