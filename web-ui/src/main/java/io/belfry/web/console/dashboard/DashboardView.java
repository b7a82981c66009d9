package io.belfry.web.console.dashboard;

import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.H3;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.belfry.reminders.api.Reminder;
import io.belfry.reminders.api.ReminderPage;
import io.belfry.reminders.api.ReminderQuery;
import io.belfry.reminders.api.ReminderStatus;
import io.belfry.reminders.api.Reminders;
import io.belfry.reminders.config.BelfryExecutor;
import io.belfry.reminders.placement.ClusterStatus;
import io.belfry.web.console.LiveRefresh;
import io.belfry.web.console.MainLayout;
import io.belfry.web.console.Routes;
import io.belfry.web.metrics.FireRate;
import io.belfry.web.metrics.LatenessWindow;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What Belfry is doing now: fires per minute over the last hour and their lateness (this
 * deployment's), pending reminders per namespace (the whole cluster), and the fires due in the next
 * hour. Updated every five seconds by server push while open.
 */
@Route(value = Routes.DASHBOARD, layout = MainLayout.class)
@PageTitle("Dashboard · Belfry")
@Dependent
public class DashboardView extends VerticalLayout {

  private static final long serialVersionUID = 1L;
  static final long REFRESH_MILLIS = 5_000;

  /** At most this many upcoming reminders are read for the timeline. */
  static final int UPCOMING_LIMIT = 1_000;

  private final FireRate fireRate;
  private final LatenessWindow lateness;
  private final ClusterStatus cluster;
  private final Reminders reminders;

  private final Div firesChart = new Div();
  private final Span latenessText = new Span();
  private final Grid<Map.Entry<String, Long>> pending = new Grid<>();
  private final Div upcomingChart = new Div();
  private final Span upcomingText = new Span();

  @Inject
  public DashboardView(
      FireRate fireRate,
      LatenessWindow lateness,
      ClusterStatus cluster,
      Reminders reminders,
      @BelfryExecutor ManagedScheduledExecutorService scheduler) {
    this.fireRate = fireRate;
    this.lateness = lateness;
    this.cluster = cluster;
    this.reminders = reminders;
    firesChart.setId("fires-chart");
    latenessText.setId("lateness");
    upcomingChart.setId("upcoming-chart");
    pending.setId("pending");
    pending.addColumn(Map.Entry::getKey).setHeader("Namespace");
    pending.addColumn(Map.Entry::getValue).setHeader("Pending");
    pending.setAllRowsVisible(true);
    pending.setEmptyStateText("No pending reminders.");
    VerticalLayout fires =
        new VerticalLayout(new H3("Fires per minute, last hour"), firesChart, latenessText);
    VerticalLayout upcoming =
        new VerticalLayout(new H3("Due in the next hour"), upcomingChart, upcomingText);
    firesChart.setWidthFull();
    upcomingChart.setWidthFull();
    fires.setWidth("50%");
    upcoming.setWidth("50%");
    HorizontalLayout row = new HorizontalLayout(fires, upcoming);
    row.setWidthFull();
    add(new H2("Dashboard"), row, new H3("Pending per namespace"), pending);
    show(read());
    LiveRefresh.whileAttached(this, scheduler, REFRESH_MILLIS, this::read, this::show);
  }

  /** What one refresh shows, read off the UI thread. */
  record View(
      List<Long> firesPerMinute,
      long p50,
      long p99,
      int samples,
      List<Map.Entry<String, Long>> pending,
      List<Long> upcoming,
      boolean upcomingCut) {}

  private View read() {
    Instant now = Instant.now();
    ReminderPage due =
        reminders.list(
            ReminderQuery.all()
                .withState(ReminderStatus.PENDING)
                .withDueAfter(now)
                .withDueBefore(now.plus(Duration.ofHours(1)))
                .withLimit(UPCOMING_LIMIT));
    List<Long> perFiveMinutes = new ArrayList<>(java.util.Collections.nCopies(12, 0L));
    for (Reminder r : due.items()) {
      int bucket = (int) Math.min(11, Duration.between(now, r.nextFireAt()).toMinutes() / 5);
      perFiveMinutes.set(bucket, perFiveMinutes.get(bucket) + 1);
    }
    return new View(
        fireRate.lastHour(now),
        lateness.percentile(50),
        lateness.percentile(99),
        lateness.size(),
        new ArrayList<>(cluster.snapshot().pendingByNamespace().entrySet()),
        perFiveMinutes,
        due.hasNext());
  }

  private void show(View view) {
    firesChart
        .getElement()
        .setProperty(
            "innerHTML", SvgBars.of(view.firesPerMinute(), "60 min ago", "now", "#1676f3"));
    latenessText.setText(
        view.samples() == 0
            ? "No fires of belfry.war's namespaces on this node yet."
            : "Lateness over the last "
                + view.samples()
                + " fires: p50 "
                + view.p50()
                + " ms, p99 "
                + view.p99()
                + " ms");
    pending.setItems(view.pending());
    upcomingChart
        .getElement()
        .setProperty("innerHTML", SvgBars.of(view.upcoming(), "now", "+60 min", "#2b8a3e"));
    long total = view.upcoming().stream().mapToLong(Long::longValue).sum();
    upcomingText.setText(
        total
            + (view.upcomingCut() ? "+ (first " + UPCOMING_LIMIT + " read)" : "")
            + (total == 1 && !view.upcomingCut() ? " reminder due" : " reminders due")
            + ", in 5-minute bars");
  }
}
