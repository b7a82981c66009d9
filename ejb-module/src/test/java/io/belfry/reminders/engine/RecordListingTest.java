package io.belfry.reminders.engine;

import static io.belfry.reminders.store.MapReplica.DUE;
import static io.belfry.reminders.store.MapReplica.record;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.store.KeyIndex;
import io.belfry.reminders.store.MapReplica;
import io.belfry.reminders.store.StoredReminder;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RecordListingTest {

  private final MapReplica replica = new MapReplica();
  private final KeyIndex index = new KeyIndex(replica, replica);
  private final RecordListing listing =
      new RecordListing(id -> replica.get(id).map(StoredReminder::record));

  @BeforeEach
  void hundredPendingAndOneCancelled() {
    for (int i = 0; i < 100; i++) {
      replica.store(record("a", String.format("%03d", i), ReminderState.PENDING, DUE + i));
    }
    replica.store(record("b", "x", ReminderState.CANCELLED, DUE));
    index.liveBySegment(); // the index reads the replica
    replica.gets.set(0);
  }

  @Test
  void dueFilter_readsOnlyTheEntriesWhoseSummaryMatches() {
    RecordPage page =
        listing.page(
            index,
            new ListQuery(
                null,
                null,
                null,
                Instant.ofEpochMilli(DUE + 50),
                Instant.ofEpochMilli(DUE + 52),
                null,
                10));

    assertThat(page.items()).extracting(r -> r.id().key()).containsExactly("050", "051");
    assertThat(replica.gets).hasValue(2);
  }

  @Test
  void stateFilterNoReminderOfTheNamespaceMatches_answeredWithoutReadingOrWalking() {
    replica.beforeVisit =
        (k, v) -> {
          throw new AssertionError("the replica was read again");
        };

    RecordPage page =
        listing.page(
            index, new ListQuery("a", null, ReminderState.CANCELLED, null, null, null, 10));

    assertThat(page.items()).isEmpty();
    assertThat(page.nextAfterKey()).isEmpty();
    assertThat(replica.gets).hasValue(0);
  }

  @Test
  void stateFilter_findsTheOneMatchAfterTheOthersAreSkippedUnread() {
    RecordPage page =
        listing.page(
            index, new ListQuery(null, null, ReminderState.CANCELLED, null, null, null, 10));

    assertThat(page.items())
        .extracting(ReminderRecord::id)
        .containsExactly(ReminderId.of("b", "x"));
    assertThat(replica.gets).hasValue(1);
  }

  @Test
  void summaryOlderThanTheEntry_theEntryAsStoredDecides() {
    // the store changed without the index being told (yet): the page shows the entry as stored
    replica.store(record("a", "007", ReminderState.FIRED, DUE + 7));

    RecordPage page =
        listing.page(index, new ListQuery("a", "00", ReminderState.PENDING, null, null, null, 20));

    assertThat(page.items()).extracting(r -> r.id().key()).doesNotContain("007").hasSize(9);
  }
}
