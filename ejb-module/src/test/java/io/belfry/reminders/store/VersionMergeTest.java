package io.belfry.reminders.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.Schedule;
import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.infinispan.container.entries.CacheEntry;
import org.infinispan.container.entries.ImmortalCacheEntry;
import org.junit.jupiter.api.Test;

public class VersionMergeTest {

  private static final ReminderId ID = ReminderId.of("ns", "k");
  private final VersionMerge merge = new VersionMerge();

  @Test
  void higherVersionWins_whicheverReplicaHoldsIt() {
    CacheEntry<String, String> v1 = entry(live(1));
    CacheEntry<String, String> v3 = entry(live(3));
    CacheEntry<String, String> v2 = entry(live(2));
    assertThat(merge.merge(v1, List.of(v3, v2))).isSameAs(v3);
    assertThat(merge.merge(v3, List.of(v1, v2))).isSameAs(v3);
  }

  @Test
  void tombstoneWinsOverLiveEntryOfTheSameVersion() {
    CacheEntry<String, String> live = entry(live(5));
    CacheEntry<String, String> fired = entry(live(5).tombstone(ReminderState.FIRED, 1_000));
    assertThat(merge.merge(live, List.of(fired))).isSameAs(fired);
    assertThat(merge.merge(fired, List.of(live))).isSameAs(fired);
  }

  @Test
  void newerLiveEntryWinsOverOlderTombstone() {
    CacheEntry<String, String> cancelled = entry(live(5).tombstone(ReminderState.CANCELLED, 1_000));
    CacheEntry<String, String> replaced = entry(live(7));
    assertThat(merge.merge(cancelled, List.of(replaced))).isSameAs(replaced);
  }

  @Test
  void aMissingReplicaNeverDropsTheEntry() {
    CacheEntry<String, String> v2 = entry(live(2));
    assertThat(merge.merge(null, Arrays.asList(null, v2))).isSameAs(v2);
    assertThat(merge.merge(v2, Arrays.asList((CacheEntry<String, String>) null))).isSameAs(v2);
  }

  @Test
  void anUndecodableReplicaLosesToOneThatDecodes() {
    CacheEntry<String, String> garbage = new ImmortalCacheEntry(ID.cacheKey(), "not a reminder");
    CacheEntry<String, String> v2 = entry(live(2));
    assertThat(merge.merge(garbage, List.of(v2))).isSameAs(v2);
    assertThat(merge.merge(v2, List.of(garbage))).isSameAs(v2);
  }

  static ReminderRecord live(long version) {
    return live(ID, version);
  }

  /** A pending one-shot record of this id and version (also for the cluster repair test). */
  public static ReminderRecord live(ReminderId id, long version) {
    return live(id, version, Instant.ofEpochMilli(1_795_000_900_000L));
  }

  /** A pending one-shot record of this id and version, due at {@code due}. */
  public static ReminderRecord live(ReminderId id, long version, Instant due) {
    return new ReminderRecord(
        id,
        version,
        ReminderState.PENDING,
        new Schedule.Once(),
        due.toEpochMilli(),
        1,
        null,
        null,
        MisfirePolicy.FIRE_ONCE,
        null,
        DeliveryMode.AT_MOST_ONCE,
        "p".getBytes(StandardCharsets.UTF_8),
        null,
        1_795_000_000_000L,
        1_795_000_000_000L);
  }

  static CacheEntry<String, String> entry(ReminderRecord record) {
    return new ImmortalCacheEntry(
        record.id().cacheKey(), CacheValues.toCache(ReminderCodec.encode(record)));
  }
}
