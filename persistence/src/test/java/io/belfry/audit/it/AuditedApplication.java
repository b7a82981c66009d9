package io.belfry.audit.it;

import io.belfry.reminders.api.Namespace;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ServesNamespaces;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The test application: serves namespace {@value #NAMESPACE}, so its reminders fire here, and lets
 * tests wait on a condition until given keys have fired.
 */
@ServesNamespaces(AuditedApplication.NAMESPACE)
@ApplicationScoped
public class AuditedApplication {

  public static final String NAMESPACE = "it-audit";

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition fired = lock.newCondition();
  private final Set<String> firedKeys = new HashSet<>();
  private final Map<String, Duration> lateness = new HashMap<>();

  void onFire(@Observes @Namespace(NAMESPACE) ReminderFired fire) {
    lock.lock();
    try {
      firedKeys.add(fire.getKey());
      lateness.put(fire.getKey(), Duration.between(fire.getDueAt(), Instant.now()));
      fired.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** How late each of {@code keys} was observed here (delivery time minus due time). */
  public Map<String, Duration> lateness(Set<String> keys) {
    lock.lock();
    try {
      Map<String, Duration> result = new HashMap<>(lateness);
      result.keySet().retainAll(keys);
      return result;
    } finally {
      lock.unlock();
    }
  }

  /** Waits until every one of {@code keys} has fired; false on timeout. */
  public boolean awaitFired(Set<String> keys, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      while (!firedKeys.containsAll(keys)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        fired.await(left, TimeUnit.NANOSECONDS);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }
}
