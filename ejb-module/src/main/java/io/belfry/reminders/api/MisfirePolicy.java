package io.belfry.reminders.api;

/** What to do with occurrences found overdue, e.g. after downtime or while nobody served them. */
public enum MisfirePolicy {
  /** Fire the overdue occurrence once, then continue from the next occurrence in the future. */
  FIRE_ONCE,
  /** Fire every missed occurrence, one after another. */
  FIRE_ALL,
  /** Skip an occurrence found later than the reminder's deadline; fire the others. */
  SKIP
}
