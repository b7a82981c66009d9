package io.belfry.reminders.api.validation;

import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.Schedule;
import io.belfry.reminders.api.ValidationLimits;
import io.belfry.reminders.schedule.Bounds;
import io.belfry.reminders.schedule.Occurrence;
import io.belfry.reminders.schedule.ScheduleParser;
import io.belfry.reminders.schedule.Timeline;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the cross-field rules in an order where a later rule only runs when the fields it reads
 * are sound, so that one mistake yields one message: a second recurrence is reported, not also a
 * confusing "until" error computed from the wrong schedule. Single-field syntax (interval, zone,
 * repeat text) is checked by the field constraints and only skipped here.
 */
public class ConsistentScheduleValidator
    implements ConstraintValidator<ConsistentSchedule, ReminderRequest> {

  @Override
  public boolean isValid(ReminderRequest request, ConstraintValidatorContext context) {
    if (request == null) {
      return true;
    }
    context.disableDefaultConstraintViolation();
    Instant now = context.getClockProvider().getClock().instant();
    boolean valid = checkDeadline(request, context);
    if (!checkOneRecurrence(request, context)) {
      return false;
    }
    Schedule.Cron cron = null;
    if (request.getCron() != null) {
      cron = parseCron(request, context);
      valid &= cron != null;
    }
    if (!checkFirstFireTime(request, context)) {
      return false;
    }
    return valid && checkUntil(request, cron, now, context);
  }

  private static boolean checkDeadline(
      ReminderRequest request, ConstraintValidatorContext context) {
    if (request.getDeadline() != null && request.getMisfire() != MisfirePolicy.SKIP) {
      report(
          context,
          "deadline",
          "only applies with misfire SKIP; set misfire to SKIP or leave deadline out");
      return false;
    }
    return true;
  }

  private static boolean checkOneRecurrence(
      ReminderRequest request, ConstraintValidatorContext context) {
    List<String> given = new ArrayList<>(3);
    if (request.getEvery() != null) {
      given.add("every");
    }
    if (request.getCron() != null) {
      given.add("cron");
    }
    if (request.getRepeat() != null) {
      given.add("repeat");
    }
    for (String extra : given.subList(Math.min(1, given.size()), given.size())) {
      report(
          context,
          extra,
          "cannot be combined with " + given.get(0) + "; give one of every, cron or repeat");
    }
    return given.size() <= 1;
  }

  /** The cron schedule, or {@code null} after reporting why the expression is wrong. */
  private static Schedule.Cron parseCron(
      ReminderRequest request, ConstraintValidatorContext context) {
    // A bad zone is reported on "zone" by its own constraint; UTC still checks the expression.
    ZoneId zone;
    try {
      zone = ScheduleParser.parseZone(request.getZone());
    } catch (IllegalArgumentException reportedOnZone) {
      zone = ZoneId.of("UTC");
    }
    try {
      return ScheduleParser.cron(request.getCron(), zone);
    } catch (IllegalArgumentException e) {
      report(context, "cron", e.getMessage());
      return null;
    }
  }

  private static boolean checkFirstFireTime(
      ReminderRequest request, ConstraintValidatorContext context) {
    boolean hasFireAt = request.getFireAt() != null;
    boolean hasDelay = request.getDelay() != null;
    if (request.getRepeat() != null) {
      String why = "must be left out with repeat, whose start is the first fire time";
      if (hasFireAt) {
        report(context, "fireAt", why);
      }
      if (hasDelay) {
        report(context, "delay", why);
      }
      return !hasFireAt && !hasDelay;
    }
    if (hasFireAt && hasDelay) {
      report(context, "delay", "cannot be combined with fireAt; give one of fireAt or delay");
      return false;
    }
    if (!hasFireAt && !hasDelay && request.getCron() == null) {
      report(
          context,
          "fireAt",
          "is required: give fireAt or delay for the first fire (or repeat, or cron alone)");
      return false;
    }
    return true;
  }

  private static boolean checkUntil(
      ReminderRequest request,
      Schedule.Cron cron,
      Instant now,
      ConstraintValidatorContext context) {
    Instant until = request.getUntil();
    if (until == null) {
      return true;
    }
    Instant first = firstFireTime(request, cron, now);
    if (first != null && !until.isAfter(first)) {
      report(context, "until", "must be after the first fire time " + first);
      return false;
    }
    return true;
  }

  /**
   * The first fire time, or {@code null} when a field it needs is invalid (its own constraint
   * reports it) or, for cron, when the expression never matches in the horizon.
   */
  private static Instant firstFireTime(ReminderRequest request, Schedule.Cron cron, Instant now) {
    if (request.getRepeat() != null) {
      try {
        return ScheduleParser.repeat(request.getRepeat()).start();
      } catch (IllegalArgumentException reportedOnRepeat) {
        return null;
      }
    }
    if (request.getFireAt() != null) {
      return request.getFireAt();
    }
    if (request.getDelay() != null) {
      boolean delayInRange =
          !request.getDelay().isNegative()
              && request.getDelay().compareTo(ValidationLimits.MAX_HORIZON) <= 0;
      return delayInRange ? now.plus(request.getDelay()) : null;
    }
    if (cron != null) {
      return Timeline.of(cron, Bounds.NONE).first(null, now).map(Occurrence::due).orElse(null);
    }
    return null;
  }

  private static void report(ConstraintValidatorContext context, String field, String message) {
    context
        .buildConstraintViolationWithTemplate(Violations.literal(message))
        .addPropertyNode(field)
        .addConstraintViolation();
  }
}
