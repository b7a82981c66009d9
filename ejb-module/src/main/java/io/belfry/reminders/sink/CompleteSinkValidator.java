package io.belfry.reminders.sink;

import io.belfry.reminders.api.validation.Violations;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

/**
 * The rules across fields: a sink forwards somewhere (a webhook, a broker or both); a webhook has a
 * secret; a broker has a destination; and no field is set that its sink would not use (a leftover
 * would be stored and never read). One violation per field.
 */
public class CompleteSinkValidator implements ConstraintValidator<CompleteSink, SinkSettings> {

  @Override
  public boolean isValid(SinkSettings sink, ConstraintValidatorContext context) {
    if (sink == null) {
      return true;
    }
    boolean valid = true;
    if (!sink.hasWebhook() && !sink.hasJms()) {
      Violations.report(
          context,
          "webhookUrl",
          "is required unless a jmsUrl is given (to remove the sink, DELETE it instead)");
      valid = false;
    }
    if (sink.hasWebhook() && sink.secret() == null) {
      valid = report(context, "secret", "is required with a webhookUrl");
    } else if (!sink.hasWebhook() && sink.hasJms() && sink.secret() != null) {
      valid = report(context, "secret", "is used only with a webhookUrl");
    }
    if (sink.hasJms() && sink.jmsDestination() == null) {
      valid = report(context, "jmsDestination", "is required with a jmsUrl");
    }
    if (!sink.hasJms()) {
      for (var unused :
          new String[][] {
            {"jmsDestination", sink.jmsDestination()},
            {"jmsUser", sink.jmsUser()},
            {"jmsPassword", sink.jmsPassword()}
          }) {
        if (unused[1] != null) {
          valid = report(context, unused[0], "is used only with a jmsUrl");
        }
      }
    } else if (sink.jmsUser() == null && sink.jmsPassword() != null) {
      valid = report(context, "jmsPassword", "is used only with a jmsUser");
    }
    return valid;
  }

  private static boolean report(ConstraintValidatorContext context, String field, String message) {
    Violations.report(context, field, message);
    return false;
  }
}
