package io.belfry.web.console;

import com.vaadin.flow.component.applayout.AppLayout;
import com.vaadin.flow.component.applayout.DrawerToggle;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.sidenav.SideNav;
import com.vaadin.flow.component.sidenav.SideNavItem;
import com.vaadin.flow.server.VaadinSession;
import io.belfry.web.security.Roles;
import jakarta.servlet.ServletException;

/** The frame of every view: title, navigation, who is logged in with which role, log out. */
public class MainLayout extends AppLayout {

  private static final long serialVersionUID = 1L;

  public MainLayout() {
    H1 title = new H1("Belfry");
    title.getStyle().set("font-size", "var(--lumo-font-size-l)").set("margin", "0");
    Span user =
        new Span(CurrentUser.name() + " · " + (CurrentUser.isAdmin() ? Roles.ADMIN : Roles.VIEWER));
    user.setId("current-user");
    Button logout = new Button("Log out", e -> logout());
    logout.setId("logout");
    logout.addThemeVariants(ButtonVariant.LUMO_TERTIARY);
    HorizontalLayout header = new HorizontalLayout(new DrawerToggle(), title, user, logout);
    header.setWidthFull();
    header.setAlignItems(FlexComponent.Alignment.CENTER);
    header.expand(title);
    header.getStyle().set("padding", "0 var(--lumo-space-m)");
    addToNavbar(header);

    SideNav nav = new SideNav();
    nav.addItem(
        new SideNavItem("Dashboard", Routes.DASHBOARD),
        new SideNavItem("Reminders", Routes.REMINDERS),
        new SideNavItem("Cluster", Routes.CLUSTER));
    if (CurrentUser.isAdmin()) {
      nav.addItem(new SideNavItem("Sink", Routes.SINK));
      nav.addItem(new SideNavItem("API tokens", Routes.TOKENS));
    }
    addToDrawer(nav);
  }

  private void logout() {
    try {
      CurrentUser.request().logout();
    } catch (ServletException e) {
      // the session is invalidated below all the same
    }
    VaadinSession.getCurrent().getSession().invalidate();
    getUI().ifPresent(ui -> ui.getPage().setLocation(Routes.LOGIN));
  }
}
