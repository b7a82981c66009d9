package io.belfry.web.console;

import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.login.LoginForm;
import com.vaadin.flow.component.login.LoginI18n;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.server.VaadinService;
import com.vaadin.flow.server.VaadinServletRequest;
import io.belfry.web.security.FailedLogins;
import io.belfry.web.security.LoginThrottle;
import jakarta.enterprise.context.Dependent;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Log in with a Belfry user (the same realm and roles as the REST API). The form's credentials go
 * to the container ({@code HttpServletRequest.login}), which keeps the identity in the session.
 */
@Route(Routes.LOGIN)
@PageTitle("Log in · Belfry")
@Dependent
public class LoginView extends VerticalLayout {

  private static final long serialVersionUID = 1L;

  private final LoginForm form;

  public LoginView() {
    setSizeFull();
    setAlignItems(FlexComponent.Alignment.CENTER);
    setJustifyContentMode(FlexComponent.JustifyContentMode.CENTER);
    LoginForm form = new LoginForm(i18n());
    form.setForgotPasswordButtonVisible(false);
    form.addLoginListener(
        event -> {
          if (login(event.getUsername(), event.getPassword())) {
            getUI().ifPresent(ui -> ui.navigate(Routes.DASHBOARD));
          } else {
            form.setError(true);
            form.setEnabled(true);
          }
        });
    this.form = form;
    add(
        new H1("Belfry"),
        new Paragraph("Durable reminders for WildFly. Log in as a belfry-viewer or belfry-admin."),
        form);
  }

  private boolean login(String user, String password) {
    VaadinServletRequest vaadinRequest = VaadinServletRequest.getCurrent();
    HttpServletRequest request = vaadinRequest.getHttpServletRequest();
    // the same per-address counts as the API's credentials (LoginThrottle)
    FailedLogins failures = LoginThrottle.of(request.getServletContext());
    String address = FailedLogins.keyOf(request.getRemoteAddr());
    if (failures != null && failures.isBlocked(address)) {
      form.setI18n(blocked());
      return false;
    }
    try {
      if (request.getUserPrincipal() != null) {
        request.logout();
      }
      // a new session id for the logged-in user: no session fixation
      VaadinService.reinitializeSession(vaadinRequest);
      request.login(user, password);
      return CurrentUser.mayView();
    } catch (ServletException e) {
      if (failures != null && !realmUnavailable(e)) {
        LoginThrottle.failed(failures, address);
        if (failures.isBlocked(address)) {
          form.setI18n(blocked());
        }
      }
      return false;
    }
  }

  /**
   * Whether the login failed because the users could not be read (the database is down), not
   * because of the credentials: that is no guess, and is not counted.
   */
  private static boolean realmUnavailable(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t.getClass().getName().endsWith("RealmUnavailableException")
          || t instanceof java.sql.SQLException) {
        return true;
      }
    }
    return false;
  }

  private static LoginI18n blocked() {
    LoginI18n i18n = i18n();
    i18n.getErrorMessage().setTitle("Too many failed logins");
    i18n.getErrorMessage().setMessage("Too many failed logins from your address: try again later.");
    return i18n;
  }

  private static LoginI18n i18n() {
    LoginI18n i18n = LoginI18n.createDefault();
    i18n.getForm().setTitle("Log in");
    i18n.getErrorMessage().setTitle("Wrong user name or password");
    i18n.getErrorMessage().setMessage("Check them and try again; ask an admin for an account.");
    return i18n;
  }
}
