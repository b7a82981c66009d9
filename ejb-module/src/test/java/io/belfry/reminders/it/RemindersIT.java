package io.belfry.reminders.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.belfry.reminders.api.InvalidReminderException;
import io.belfry.reminders.api.Reminder;
import io.belfry.reminders.api.ReminderFired;
import io.belfry.reminders.api.ReminderNotFoundException;
import io.belfry.reminders.api.ReminderPage;
import io.belfry.reminders.api.ReminderQuery;
import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.ReminderStatus;
import io.belfry.reminders.api.Reminders;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Java API and firing on the provisioned server, through the application's CDI observers.
 * "Never fires" is shown by a sentinel reminder due later than the one that must not fire: once the
 * sentinel fired, the other had its chance.
 */
@ExtendWith(ArquillianExtension.class)
class RemindersIT {

  private static final Duration WAIT = Duration.ofSeconds(20);

  @Deployment
  static WebArchive deployment() {
    return EngineDeployments.application(
        "reminders-it", RemindersIT.class, FireRecorder.class, AbandonedCarts.class);
  }

  @Inject Reminders reminders;

  @Inject FireRecorder recorder;

  @Inject AbandonedCarts carts;

  @Test
  void setAfter_oneShot_firesOnceToSyncAndAsyncObserversWithPayloadAndFence() throws Exception {
    String key = unique("once");
    Reminder set = reminders.setAfter(key, Duration.ofMillis(300), bytes("hello"));

    assertTrue(recorder.awaitFires(key, 1, WAIT), "fired");
    assertTrue(recorder.awaitAsyncFires(key, 1, WAIT), "async observer notified");
    ReminderFired fired = recorder.fires(key).get(0);
    assertEquals(FireRecorder.NAMESPACE, fired.getNamespace());
    assertEquals("hello", fired.payloadAsString());
    assertEquals(set.version(), fired.getFence());
    assertEquals(1, fired.getOccurrence());
    assertFalse(fired.getFiredAt().isBefore(fired.getDueAt()), "never early");
    assertTrue(reminders.get(key).isEmpty(), "a fired one-shot is no longer live");
    awaitSentinel();
    assertEquals(1, recorder.fires(key).size(), "exactly once");
  }

  @Test
  void preview_cronAndBoundedInterval_listsNextOccurrencesWithoutStoring() {
    String key = unique("preview");
    List<Instant> weekdays =
        reminders.preview(ReminderRequest.key(key).cron("0 9 * * MON-FRI", "UTC").build(), 5);
    assertEquals(5, weekdays.size());
    for (Instant due : weekdays) {
      java.time.ZonedDateTime at = due.atZone(java.time.ZoneOffset.UTC);
      assertEquals(9, at.getHour());
      assertTrue(at.getDayOfWeek().getValue() <= 5, "a weekday: " + at);
    }
    Instant start = Instant.parse("2099-01-01T00:00:00Z");
    assertEquals(
        List.of(start, start.plusSeconds(900), start.plusSeconds(1800)),
        reminders.preview(
            ReminderRequest.key(key).at(start).every("15m").maxOccurrences(3).build(), 5));
    assertTrue(reminders.get(key).isEmpty(), "a preview stores nothing");
  }

  @Test
  void set_sameKeyAgainBeforeDue_firesOnlyTheNewVersionOnce() throws Exception {
    String key = unique("replaced");
    Reminder first = reminders.setAfter(key, Duration.ofMillis(800), bytes("v1"));
    Reminder second = reminders.setAfter(key, Duration.ofMillis(400), bytes("v2"));
    assertTrue(second.version() > first.version(), "a replace gets a higher version");

    assertTrue(recorder.awaitFires(key, 1, WAIT));
    awaitSentinelAfter(Duration.ofMillis(1500));
    List<ReminderFired> fires = recorder.fires(key);
    assertEquals(1, fires.size(), "the replaced version never fires");
    assertEquals("v2", fires.get(0).payloadAsString());
    assertEquals(second.version(), fires.get(0).getFence());
  }

  @Test
  void cancel_beforeDue_neverFiresAndASecondCancelIsNotFound() throws Exception {
    String key = unique("cancelled");
    reminders.setAfter(key, Duration.ofMillis(300), bytes("x"));
    reminders.cancel(key);

    assertTrue(reminders.get(key).isEmpty());
    assertThrows(ReminderNotFoundException.class, () -> reminders.cancel(key));
    awaitSentinelAfter(Duration.ofMillis(800));
    assertEquals(0, recorder.fires(key).size(), "a cancelled reminder never fires");
  }

  @Test
  void every_withMaxOccurrences3_firesExactlyThreeNumberedOccurrences() throws Exception {
    String key = unique("interval");
    reminders.set(
        ReminderRequest.key(key)
            .after(Duration.ofMillis(200))
            .every("200ms")
            .maxOccurrences(3)
            .build());

    assertTrue(recorder.awaitFires(key, 3, WAIT));
    awaitSentinelAfter(Duration.ofMillis(1000));
    List<ReminderFired> fires = recorder.fires(key);
    assertEquals(3, fires.size(), "exactly N");
    assertEquals(List.of(1L, 2L, 3L), fires.stream().map(ReminderFired::getOccurrence).toList());
    assertEquals(
        Duration.ofMillis(200),
        Duration.between(fires.get(0).getDueAt(), fires.get(1).getDueAt()),
        "occurrences follow the scheduled times, not the fire times");
  }

  @Test
  void list_byNamespaceAndPrefix_pagesInKeyOrderWithACursor() {
    String prefix = unique("listed") + "-";
    for (String suffix : List.of("c", "a", "b")) {
      reminders.setAfter(prefix + suffix, Duration.ofHours(1), null);
    }
    ReminderQuery query =
        ReminderQuery.all()
            .withNamespace(FireRecorder.NAMESPACE)
            .withKeyPrefix(prefix)
            .withState(ReminderStatus.PENDING)
            .withLimit(2);

    ReminderPage first = reminders.list(query);
    ReminderPage second = reminders.list(query.withCursor(first.next()));

    assertEquals(List.of(prefix + "a", prefix + "b"), keys(first));
    assertTrue(first.hasNext());
    assertEquals(List.of(prefix + "c"), keys(second));
    assertFalse(second.hasNext());
    for (String suffix : List.of("a", "b", "c")) {
      reminders.cancel(prefix + suffix);
    }
  }

  @Test
  void list_prefixWithoutNamespace_isRejectedNamingTheField() {
    InvalidReminderException e =
        assertThrows(
            InvalidReminderException.class,
            () -> reminders.list(ReminderQuery.all().withKeyPrefix("x")));
    assertEquals("keyPrefix", e.getViolations().get(0).field());
  }

  @Test
  void set_invalidRequest_namesTheFieldAndStoresNothing() {
    String key = unique("invalid");
    InvalidReminderException e =
        assertThrows(
            InvalidReminderException.class,
            () ->
                reminders.set(
                    ReminderRequest.key(key).after(Duration.ofSeconds(1)).every("10ms").build()));

    assertEquals("every", e.getViolations().get(0).field());
    assertTrue(reminders.get(key).isEmpty(), "nothing stored");
  }

  @Test
  void throwingObserver_doesNotStopOtherReminders() throws Exception {
    String failing = FireRecorder.FAILING_PREFIX + UUID.randomUUID();
    String healthy = unique("healthy");
    reminders.setAfter(failing, Duration.ofMillis(200), null);
    reminders.setAfter(healthy, Duration.ofMillis(400), null);

    assertTrue(recorder.awaitFires(healthy, 1, WAIT), "the other reminder still fires");
    assertTrue(recorder.awaitAsyncFires(failing, 1, WAIT), "the failing one was delivered");
  }

  @Test
  void reminderOfUnservedNamespace_staysPending() throws Exception {
    String key = unique("unserved");
    reminders.set(
        ReminderRequest.key(key)
            .namespace("nobody-serves-this")
            .after(Duration.ofMillis(100))
            .build());

    awaitSentinelAfter(Duration.ofMillis(600));
    Reminder stillThere = reminders.get("nobody-serves-this", key).orElseThrow();
    assertEquals(ReminderStatus.PENDING, stillThere.state());
    reminders.cancel("nobody-serves-this", key);
  }

  @Test
  void abandonedCart_resetOnEachAddAndCancelledAtCheckout_firesOnlyForTheAbandonedCart()
      throws Exception {
    carts.abandonAfter(Duration.ofMillis(600));
    String bought = UUID.randomUUID().toString();
    String abandoned = UUID.randomUUID().toString();

    carts.itemAdded(bought);
    carts.itemAdded(abandoned);
    carts.itemAdded(bought); // resets its reminder
    carts.checkedOut(bought);

    assertTrue(recorder.awaitFires("cart-" + abandoned, 1, WAIT));
    awaitSentinelAfter(Duration.ofMillis(1200));
    assertEquals(
        List.of(abandoned),
        carts.abandoned().stream()
            .filter(id -> id.equals(bought) || id.equals(abandoned))
            .toList());
  }

  private void awaitSentinel() throws InterruptedException {
    awaitSentinelAfter(Duration.ofMillis(300));
  }

  /** Sets a reminder due after {@code delay} and waits until it fired. */
  private void awaitSentinelAfter(Duration delay) throws InterruptedException {
    String sentinel = unique("sentinel");
    Instant due = Instant.now().plus(delay);
    reminders.setAt(sentinel, due, null);
    assertTrue(recorder.awaitFires(sentinel, 1, WAIT), "sentinel fired");
  }

  private static List<String> keys(ReminderPage page) {
    return page.items().stream().map(Reminder::key).toList();
  }

  private static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
