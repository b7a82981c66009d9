package io.belfry.reminders.it;

import io.belfry.reminders.api.Namespace;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ServesNamespaces;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The test application's observer: records every fire of namespace {@value #NAMESPACE}, from a
 * synchronous and an asynchronous observer, and lets tests wait for them on a condition.
 */
@ServesNamespaces(FireRecorder.NAMESPACE)
@ApplicationScoped
public class FireRecorder {

  public static final String NAMESPACE = "it-engine";

  /** Keys starting with this make the synchronous observer throw. */
  public static final String FAILING_PREFIX = "boom-";

  /** Keys starting with this make the synchronous observer throw until the test heals them. */
  public static final String SICK_PREFIX = "sick-";

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition recorded = lock.newCondition();
  private final Map<String, List<ReminderFired>> sync = new HashMap<>();
  private final Map<String, List<ReminderFired>> async = new HashMap<>();
  private final Map<String, List<ReminderFired>> attempts = new HashMap<>();
  private final Set<String> healed = ConcurrentHashMap.newKeySet();

  void onFire(@Observes @Namespace(NAMESPACE) ReminderFired fired) {
    record(attempts, fired);
    String key = fired.getKey();
    if (key.startsWith(FAILING_PREFIX) || key.startsWith(SICK_PREFIX) && !healed.contains(key)) {
      throw new IllegalStateException("this observer fails on purpose for " + key);
    }
    record(sync, fired);
  }

  /** From now on the observer accepts the fires of {@code key}. */
  public void heal(String key) {
    healed.add(key);
  }

  /** Every delivery of {@code key} that reached the synchronous observer, failed ones included. */
  public List<ReminderFired> attempts(String key) {
    return snapshot(attempts, key);
  }

  void onFireAsync(@ObservesAsync ReminderFired fired) {
    record(async, fired);
  }

  public List<ReminderFired> fires(String key) {
    return snapshot(sync, key);
  }

  public List<ReminderFired> asyncFires(String key) {
    return snapshot(async, key);
  }

  /** Waits until {@code key} has fired {@code count} times (sync observer); false on timeout. */
  public boolean awaitFires(String key, int count, Duration timeout) throws InterruptedException {
    return await(sync, key, count, timeout);
  }

  public boolean awaitAsyncFires(String key, int count, Duration timeout)
      throws InterruptedException {
    return await(async, key, count, timeout);
  }

  private boolean await(Map<String, List<ReminderFired>> fires, String key, int count, Duration t)
      throws InterruptedException {
    long deadline = System.nanoTime() + t.toNanos();
    lock.lock();
    try {
      while (fires.getOrDefault(key, List.of()).size() < count) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        recorded.await(left, TimeUnit.NANOSECONDS);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void record(Map<String, List<ReminderFired>> fires, ReminderFired fired) {
    lock.lock();
    try {
      fires.computeIfAbsent(fired.getKey(), k -> new ArrayList<>()).add(fired);
      recorded.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private List<ReminderFired> snapshot(Map<String, List<ReminderFired>> fires, String key) {
    lock.lock();
    try {
      return List.copyOf(fires.getOrDefault(key, List.of()));
    } finally {
      lock.unlock();
    }
  }
}
