package io.belfry.reminders.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.InvalidReminderException.Violation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReminderQueryValidationTest {

  private static FixedClockValidation validation;

  @BeforeAll
  static void startValidator() {
    validation = new FixedClockValidation();
  }

  @AfterAll
  static void closeValidator() {
    validation.close();
  }

  @Test
  void all_defaults_limit50AndValid() {
    assertThat(ReminderQuery.all().limit()).isEqualTo(50);
    assertThat(validation.violationsOf(ReminderQuery.all())).isEmpty();
  }

  @Test
  void withers_everyFilter_validAndKept() {
    ReminderQuery query =
        ReminderQuery.all()
            .withNamespace("shop")
            .withKeyPrefix("cart-")
            .withState(ReminderStatus.PENDING)
            .withDueAfter(Instant.parse("2026-01-01T00:00:00Z"))
            .withDueBefore(Instant.parse("2026-02-01T00:00:00Z"))
            .withLimit(1000)
            .withCursor("abc");
    assertThat(validation.violationsOf(query)).isEmpty();
    assertThat(query.keyPrefix()).isEqualTo("cart-");
    assertThat(query.cursor()).isEqualTo("abc");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1, 1001})
  void validate_limitOutOfRange_reportsLimit(int limit) {
    assertThat(validation.violationsOf(ReminderQuery.all().withLimit(limit)))
        .extracting(Violation::field)
        .containsExactly("limit");
  }

  @Test
  void validate_dueBeforeNotAfterDueAfter_reportsDueBefore() {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    assertThat(validation.violationsOf(ReminderQuery.all().withDueAfter(t).withDueBefore(t)))
        .containsExactly(new Violation("dueBefore", "must be after dueAfter"));
  }

  @Test
  void validate_keyPrefixWithControlCharacter_reportsKeyPrefix() {
    assertThat(validation.violationsOf(ReminderQuery.all().withKeyPrefix("a\u0000")))
        .containsExactly(new Violation("keyPrefix", "must not contain control characters"));
  }

  @Test
  void validate_badNamespace_reportsNamespace() {
    assertThat(validation.violationsOf(ReminderQuery.all().withNamespace("../etc")))
        .extracting(Violation::field)
        .containsExactly("namespace");
  }

  @Test
  void page_items_copiedAndNextFlag() {
    ReminderPage last = new ReminderPage(new ArrayList<>(), null);
    assertThat(last.hasNext()).isFalse();
    assertThat(new ReminderPage(List.of(), "c").hasNext()).isTrue();
  }
}
