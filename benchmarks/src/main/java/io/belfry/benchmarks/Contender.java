package io.belfry.benchmarks;

import java.util.List;

/**
 * One system under test, started with some number of instances (nodes or scheduler instances) that
 * share its state. Clients call it from several threads; a call returns once the system has
 * acknowledged the operation (committed, replicated). Every execution of a task is reported to
 * {@link Fires#fired}.
 */
interface Contender extends AutoCloseable {

  /** One-shot task {@code id} due at {@code dueMillis} (epoch ms); through instance {@code via}. */
  void schedule(int via, String id, long dueMillis) throws Exception;

  /** Cancels task {@code id}, which has not fired yet; through instance {@code via}. */
  void cancel(int via, String id) throws Exception;

  /**
   * Schedules many tasks due at the same time, the fastest way the system offers (a batch where it
   * has one); for loading the pending set of the cold-restart workload.
   */
  default void scheduleAll(List<String> ids, long dueMillis) throws Exception {
    for (String id : ids) {
      schedule(0, id, dueMillis);
    }
  }

  /** Stops executing (the instances go down) but still accepts schedules, as a client would. */
  void pause() throws Exception;

  /** Memory the system's durable state takes outside the JVM heap, in bytes (disk or database). */
  long storedBytes() throws Exception;

  /** How many tasks the instances have armed in memory, or -1 where nothing is armed. */
  default long armed() {
    return -1;
  }

  @Override
  void close();
}
