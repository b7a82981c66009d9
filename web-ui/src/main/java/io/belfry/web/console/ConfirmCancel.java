package io.belfry.web.console;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.html.Paragraph;

/** A confirmation before an action that cannot be undone. */
public final class ConfirmCancel {

  private ConfirmCancel() {}

  public static void open(String title, String text, Runnable action) {
    Dialog dialog = new Dialog();
    dialog.setHeaderTitle(title);
    dialog.add(new Paragraph(text));
    Button confirm =
        new Button(
            "Cancel the reminder",
            e -> {
              dialog.close();
              action.run();
            });
    confirm.setId("confirm-cancel");
    confirm.addThemeVariants(ButtonVariant.LUMO_PRIMARY, ButtonVariant.LUMO_ERROR);
    Button keep = new Button("Keep it", e -> dialog.close());
    dialog.getFooter().add(keep, confirm);
    dialog.open();
  }
}
