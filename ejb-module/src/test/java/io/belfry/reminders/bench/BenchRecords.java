package io.belfry.reminders.bench;

import io.belfry.reminders.engine.ReminderSpec;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;

/** The stored form of a benchmark reminder, for measuring the codec (here and in benchmarks/). */
public final class BenchRecords {

  private BenchRecords() {}

  /** {@code spec} as the engine stores it when first set: pending, occurrence 1, no bounds. */
  public static ReminderRecord pending(ReminderSpec spec, long version, long nowMillis) {
    return new ReminderRecord(
        spec.id(),
        version,
        ReminderState.PENDING,
        spec.schedule(),
        spec.firstDue().toEpochMilli(),
        1,
        null,
        null,
        spec.misfire(),
        null,
        spec.delivery(),
        spec.payload(),
        null,
        nowMillis,
        nowMillis);
  }
}
