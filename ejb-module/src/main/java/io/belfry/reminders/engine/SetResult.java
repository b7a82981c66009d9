package io.belfry.reminders.engine;

import io.belfry.reminders.model.ReminderRecord;
import java.util.Optional;

/**
 * The outcome of a set.
 *
 * @param created true if there was no live version (absent, or only a tombstone)
 * @param record what is stored now
 * @param replaced the live version this set replaced, which will never fire; empty when created
 */
public record SetResult(
    boolean created, ReminderRecord record, Optional<ReminderRecord> replaced) {}
