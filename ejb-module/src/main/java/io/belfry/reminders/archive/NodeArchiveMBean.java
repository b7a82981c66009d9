package io.belfry.reminders.archive;

/**
 * The node's archive as an MBean ({@value NodeArchive#OBJECT_NAME}): registered by the deployment
 * that has the audit module, called by the others with JDK types only ({@link ActivityCodec}).
 */
public interface NodeArchiveMBean {

  /**
   * Queues one activity ({@link ActivityCodec#encode(io.belfry.reminders.api.ReminderActivity)}).
   */
  void record(String[] activity);

  /** Writes these tombstones now; throws if the database does not take them. */
  void archiveNow(String[][] tombstones) throws Exception;

  /**
   * The sink of {@code namespace} ({@link
   * ActivityCodec#encode(io.belfry.reminders.sink.SinkSettings)}), or {@code null}.
   */
  String[] sinkFor(String namespace);
}
