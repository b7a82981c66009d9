package com.example.billing;

import io.belfry.reminders.api.Namespace;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ServesNamespaces;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Chases an invoice when its reminder fires: it is due and was not paid. */
@ApplicationScoped
@ServesNamespaces(Dunning.NAMESPACE)
public class Dunning {

  public static final String NAMESPACE = "billing";

  private final List<OverdueInvoice> overdue = new CopyOnWriteArrayList<>();

  void onDue(@Observes @Namespace(NAMESPACE) ReminderFired fired) {
    if (fired.getKey().startsWith(Invoices.PREFIX)) {
      // A real handler sends the dunning letter here, de-duplicated by the fence.
      overdue.add(
          new OverdueInvoice(
              fired.getKey().substring(Invoices.PREFIX.length()),
              fired.payloadAsString(),
              fired.getFence()));
    }
  }

  /** The invoices chased on this node, in the order their reminders fired. */
  public List<OverdueInvoice> overdue() {
    return List.copyOf(overdue);
  }

  /** One fire of an invoice's reminder: the invoice, the payload of the version that fired. */
  public record OverdueInvoice(String invoice, String payload, long fence) {}
}
