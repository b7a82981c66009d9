package io.belfry.web.console;

import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.server.ServiceInitEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Every route but the login page needs a logged-in user with a Belfry role: anyone else is sent to
 * {@link LoginView}, before the view is even created. Routes marked {@link AdminOnly} send everyone
 * but admins to the dashboard, as early.
 */
@ApplicationScoped
public class AccessControl {

  void onServiceInit(@Observes ServiceInitEvent event) {
    event
        .getSource()
        .addUIInitListener(init -> init.getUI().addBeforeEnterListener(AccessControl::check));
  }

  private static void check(BeforeEnterEvent event) {
    if (event.getNavigationTarget() == LoginView.class) {
      return;
    }
    if (!CurrentUser.isLoggedIn() || !CurrentUser.mayView()) {
      event.forwardTo(LoginView.class);
    } else if (event.getNavigationTarget().isAnnotationPresent(AdminOnly.class)
        && !CurrentUser.isAdmin()) {
      event.forwardTo(Routes.DASHBOARD);
    }
  }
}
