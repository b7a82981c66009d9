package io.belfry.web.console.tokens;

import com.vaadin.flow.component.HasValidation;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.checkbox.CheckboxGroup;
import com.vaadin.flow.component.formlayout.FormLayout;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.notification.NotificationVariant;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.InvalidReminderException.Violation;
import io.belfry.web.console.AdminOnly;
import io.belfry.web.console.CurrentUser;
import io.belfry.web.console.MainLayout;
import io.belfry.web.console.Notices;
import io.belfry.web.console.Routes;
import io.belfry.web.security.Roles;
import io.belfry.web.security.TokenDirectory;
import io.belfry.web.security.TokenDirectory.Token;
import io.belfry.web.security.TokenRequest;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Admins only: the API tokens (docs/security.md), as {@code GET/POST/DELETE /tokens} manage them,
 * through the same {@link TokenDirectory} and the same rules. A new token's secret is shown once,
 * on this page, right after it is made; the list never shows one. Revoking takes effect on the
 * token's next request, on every node.
 */
@Route(value = Routes.TOKENS, layout = MainLayout.class)
@PageTitle("API tokens · Belfry")
@Dependent
@AdminOnly
public class TokensView extends VerticalLayout implements BeforeEnterObserver {

  private static final long serialVersionUID = 1L;

  private final TokenDirectory tokens;
  private final TextField name = new TextField("Name (the client it is for)");
  private final CheckboxGroup<String> roles = new CheckboxGroup<>("Roles");
  private final TextField namespaces = new TextField("Namespaces (comma-separated; empty: all)");
  private final TextField expiresAt =
      new TextField("Expires at (e.g. 2027-01-01T00:00:00Z; empty: never)");
  private final TextField secret =
      new TextField("The new token: copy it now, it is not shown again");
  private final Paragraph status = new Paragraph();
  private final Grid<Token> grid = new Grid<>(Token.class, false);
  private final Map<String, HasValidation> byField;

  @Inject
  public TokensView(TokenDirectory tokens) {
    this.tokens = tokens;
    byField =
        Map.of("name", name, "roles", roles, "namespaces", namespaces, "expiresAt", expiresAt);
    name.setId("token-name");
    roles.setId("token-roles");
    roles.setItems(Roles.VIEWER, Roles.ADMIN);
    namespaces.setId("token-namespaces");
    expiresAt.setId("token-expires-at");
    secret.setId("token-secret");
    secret.setReadOnly(true);
    secret.setWidthFull();
    secret.setVisible(false);
    status.setId("tokens-status");
    Button create = new Button("Create token", e -> create());
    create.setId("create-token");
    create.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    configureGrid();
    add(
        new H2("API tokens"),
        new Paragraph(
            "Machine clients send a token as Authorization: Bearer instead of a password. A token"
                + " has its own roles, optionally only some namespaces and an expiry."),
        new FormLayout(name, roles, namespaces, expiresAt),
        create,
        secret,
        status,
        grid);
  }

  @Override
  public void beforeEnter(BeforeEnterEvent event) {
    load();
  }

  private void configureGrid() {
    grid.setId("tokens");
    grid.addColumn(Token::name).setHeader("Name");
    grid.addColumn(t -> String.join(", ", t.roles())).setHeader("Roles");
    grid.addColumn(t -> t.namespaces().isEmpty() ? "all" : String.join(", ", t.namespaces()))
        .setHeader("Namespaces");
    grid.addColumn(t -> t.expiresAt() == null ? "never" : t.expiresAt().toString())
        .setHeader("Expires");
    grid.addColumn(t -> t.createdAt() + (t.createdBy() == null ? "" : " by " + t.createdBy()))
        .setHeader("Created");
    grid.addColumn(t -> t.lastUsedAt() == null ? "never" : t.lastUsedAt().toString())
        .setHeader("Last used");
    grid.addComponentColumn(
            t -> {
              Button revoke = new Button("Revoke", e -> revoke(t));
              revoke.setAriaLabel("Revoke " + t.name());
              revoke.addThemeVariants(ButtonVariant.LUMO_ERROR, ButtonVariant.LUMO_SMALL);
              return revoke;
            })
        .setHeader("");
  }

  private void load() {
    try {
      grid.setItems(tokens.list());
      status.setText("");
    } catch (SQLException e) {
      status.setText("The tokens are not available now: the database does not answer.");
    }
  }

  private void create() {
    CurrentUser.requireAdmin();
    byField.values().forEach(field -> field.setInvalid(false));
    secret.setVisible(false);
    Instant expiry;
    try {
      expiry = expiresAt.isEmpty() ? null : Instant.parse(expiresAt.getValue().trim());
    } catch (DateTimeParseException e) {
      invalid("expiresAt", "must be an instant such as 2027-01-01T00:00:00Z");
      return;
    }
    TokenRequest request =
        new TokenRequest(
            name.getValue().trim(), Set.copyOf(roles.getValue()), namespaceSet(), expiry);
    TokenDirectory.Created created;
    try {
      created = tokens.create(request, CurrentUser.name());
    } catch (InvalidReminderException e) {
      for (Violation v : e.getViolations()) {
        invalid(v.field().replaceAll("[\\[.].*$", ""), v.message());
      }
      return;
    } catch (SQLException e) {
      Notices.show("Not created: the database does not answer", NotificationVariant.LUMO_ERROR);
      return;
    }
    secret.setValue(created.secret());
    secret.setVisible(true);
    Notices.show("Token " + created.token().name() + " created", NotificationVariant.LUMO_SUCCESS);
    load();
  }

  private Set<String> namespaceSet() {
    if (namespaces.getValue().isBlank()) {
      return null;
    }
    return Arrays.stream(namespaces.getValue().split(","))
        .map(String::trim)
        .collect(Collectors.toCollection(LinkedHashSet::new));
  }

  private void revoke(Token token) {
    CurrentUser.requireAdmin();
    try {
      if (tokens.revoke(token.id())) {
        Notices.show("Token " + token.name() + " revoked", NotificationVariant.LUMO_SUCCESS);
      }
    } catch (SQLException e) {
      Notices.show("Not revoked: the database does not answer", NotificationVariant.LUMO_ERROR);
    }
    load();
  }

  private void invalid(String field, String message) {
    HasValidation target = byField.get(field);
    if (target == null) {
      Notices.show(field + ": " + message, NotificationVariant.LUMO_ERROR);
      return;
    }
    target.setErrorMessage(message);
    target.setInvalid(true);
  }
}
