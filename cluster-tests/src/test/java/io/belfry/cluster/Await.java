package io.belfry.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;

/** Polling for a cluster condition that takes a while: views, topologies, replicas. */
final class Await {

  static final Duration PATIENCE = Duration.ofSeconds(90);

  private Await() {}

  /**
   * Until {@code condition} holds, asking every half second for up to {@link #PATIENCE}. An
   * exception counts as "not yet" (a node answers errors while it changes views); the last one is
   * reported if time runs out, so a condition can throw to say what it saw.
   */
  static void until(String what, Callable<Boolean> condition) throws Exception {
    Instant deadline = Instant.now().plus(PATIENCE);
    Exception last = null;
    while (true) {
      try {
        if (condition.call()) {
          return;
        }
      } catch (Exception e) {
        last = e;
      }
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError(
            "timed out waiting until " + what + (last == null ? "" : "; last answer: " + last));
      }
      Thread.sleep(500);
    }
  }
}
