package io.belfry.web.console;

import com.vaadin.flow.component.page.AppShellConfigurator;
import com.vaadin.flow.component.page.Push;
import com.vaadin.flow.server.PWA;

/**
 * The console's page shell: server push (the dashboard and cluster views update live, always
 * through {@code UI.access}), and Vaadin 24's default theme, Lumo.
 *
 * <p>No {@code @Theme} annotation: Lumo is the default without one, and {@code @Theme(themeClass =
 * Lumo.class)} names no application theme, which Flow 24.9 in production mode turned into a link to
 * {@code VAADIN/themes//styles.css} on every page, a 404 the browser refused as a stylesheet.
 */
@Push
@PWA(name = "Belfry console", shortName = "Belfry")
public class BelfryShell implements AppShellConfigurator {

  private static final long serialVersionUID = 1L;
}
