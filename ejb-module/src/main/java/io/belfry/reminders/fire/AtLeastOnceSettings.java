package io.belfry.reminders.fire;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * How at-least-once deliveries are leased and retried on this node.
 *
 * @param lease how long a lease holds without renewal: after a holder dies, its deliveries are
 *     taken over this long after its last renewal (renewed every third of it while they run)
 * @param retries the retry policy of each namespace
 */
public record AtLeastOnceSettings(Duration lease, Function<String, RetryPolicy> retries) {

  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);

  /** A 30 s lease and {@link RetryPolicy#DEFAULT} for every namespace. */
  public static final AtLeastOnceSettings DEFAULTS =
      new AtLeastOnceSettings(DEFAULT_LEASE, namespace -> RetryPolicy.DEFAULT);

  public AtLeastOnceSettings {
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(retries, "retries");
    if (lease.toMillis() < 30) {
      throw new IllegalArgumentException("lease must be at least 30 ms, was " + lease);
    }
  }
}
