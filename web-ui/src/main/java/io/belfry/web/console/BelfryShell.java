package io.belfry.web.console;

import com.vaadin.flow.component.page.AppShellConfigurator;
import com.vaadin.flow.component.page.Push;
import com.vaadin.flow.server.PWA;
import com.vaadin.flow.theme.Theme;
import com.vaadin.flow.theme.lumo.Lumo;

/**
 * The console's page shell: Lumo theme, server push (the dashboard and cluster views update live,
 * always through {@code UI.access}).
 */
@Push
@Theme(themeClass = Lumo.class)
@PWA(name = "Belfry console", shortName = "Belfry")
public class BelfryShell implements AppShellConfigurator {

  private static final long serialVersionUID = 1L;
}
