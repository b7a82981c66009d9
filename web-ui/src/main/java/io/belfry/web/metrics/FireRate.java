package io.belfry.web.metrics;

import io.belfry.reminders.api.ReminderActivity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Fires of this deployment per minute over the last hour, for the dashboard. */
@ApplicationScoped
public class FireRate {

  static final int MINUTES = 60;

  private final long[] counts = new long[MINUTES];
  private final long[] minuteOf = new long[MINUTES];

  void onActivity(@Observes ReminderActivity activity) {
    if (activity.type() == ReminderActivity.Type.FIRED
        || activity.type() == ReminderActivity.Type.DELIVERED) {
      record(activity.at());
    }
  }

  synchronized void record(Instant at) {
    long minute = at.getEpochSecond() / 60;
    int slot = (int) Math.floorMod(minute, (long) MINUTES);
    if (minuteOf[slot] != minute) {
      minuteOf[slot] = minute;
      counts[slot] = 0;
    }
    counts[slot]++;
  }

  /** Fires in each of the last 60 minutes, oldest first, the current minute last. */
  public synchronized List<Long> lastHour(Instant now) {
    long current = now.getEpochSecond() / 60;
    List<Long> result = new ArrayList<>(MINUTES);
    for (long minute = current - MINUTES + 1; minute <= current; minute++) {
      int slot = (int) Math.floorMod(minute, (long) MINUTES);
      result.add(minuteOf[slot] == minute ? counts[slot] : 0);
    }
    return result;
  }
}
