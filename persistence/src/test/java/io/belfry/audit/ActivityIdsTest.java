package io.belfry.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ActivityIdsTest {

  private static final Instant AT = Instant.parse("2026-11-28T05:00:00.123Z");

  @Test
  void isAVersion7UuidCarryingItsMillisecond() {
    UUID id = UUID.fromString(ActivityIds.timeOrdered(AT));

    assertThat(id.version()).isEqualTo(7);
    assertThat(id.variant()).isEqualTo(2);
    assertThat(id.getMostSignificantBits() >>> 16).isEqualTo(AT.toEpochMilli());
  }

  @Test
  void textSortsByTime_soTheUniqueIndexGrowsAtItsEnd() {
    String earlier = ActivityIds.timeOrdered(AT);
    for (long millis = 1; millis < 5_000; millis += 7) {
      String later = ActivityIds.timeOrdered(AT.plusMillis(millis));
      assertThat(later).isGreaterThan(earlier);
      earlier = later;
    }
    // across a carry into the next hex digit of the time, too
    assertThat(ActivityIds.timeOrdered(Instant.ofEpochMilli(0xffff)))
        .isLessThan(ActivityIds.timeOrdered(Instant.ofEpochMilli(0x10000)));
  }

  @Test
  void idsOfOneMillisecondDiffer() {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 100_000; i++) {
      ids.add(ActivityIds.timeOrdered(AT));
    }
    assertThat(ids).hasSize(100_000);
  }
}
