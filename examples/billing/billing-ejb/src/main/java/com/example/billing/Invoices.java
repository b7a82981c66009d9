package com.example.billing;

import io.belfry.reminders.api.ReminderNotFoundException;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.Reminders;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.Json;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * Issues invoices and records payments. Each unpaid invoice has a reminder due at its due date;
 * issuing the invoice again (a corrected amount or date) replaces it, and payment cancels it.
 */
@Stateless
public class Invoices {

  static final String PREFIX = "invoice-";

  @Inject Reminders reminders;

  public void issue(String invoiceId, BigDecimal amount, Instant due) {
    String payload =
        Json.createObjectBuilder()
            .add("invoice", invoiceId)
            .add("amount", amount.toPlainString())
            .build()
            .toString();
    // The reminder lives in the namespace this EAR serves (Dunning.NAMESPACE), its first one.
    reminders.set(ReminderRequest.key(PREFIX + invoiceId).at(due).payloadJson(payload).build());
  }

  /** Whether the invoice still had a pending reminder: false when it was already chased. */
  public boolean paid(String invoiceId) {
    try {
      reminders.cancel(PREFIX + invoiceId);
      return true;
    } catch (ReminderNotFoundException alreadyDue) {
      return false;
    }
  }
}
