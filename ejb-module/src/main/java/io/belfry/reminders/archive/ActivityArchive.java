package io.belfry.reminders.archive;

import io.belfry.reminders.api.ReminderActivity;
import java.util.List;

/**
 * A deployment's own archive: implemented by the audit module, found through CDI. A deployment that
 * has one archives its activity through CDI events; one that has none sends it to the node's
 * ({@link NodeArchive}).
 */
public interface ActivityArchive {

  /** Queues {@code activity} for the archive; never waits for the database. */
  void record(ReminderActivity activity);

  /**
   * Writes {@code tombstones} now, before the engine removes them.
   *
   * @throws Exception if they could not be written: the engine then keeps them
   */
  void archiveNow(List<ReminderActivity> tombstones) throws Exception;
}
