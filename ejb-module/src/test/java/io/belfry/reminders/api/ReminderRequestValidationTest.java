package io.belfry.reminders.api;

import static io.belfry.reminders.api.FixedClockValidation.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.reminders.api.InvalidReminderException.Violation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ReminderRequestValidationTest {

  private static final Instant IN_AN_HOUR = NOW.plus(Duration.ofHours(1));
  private static final Duration HUNDRED_YEARS = ValidationLimits.MAX_HORIZON;

  private static FixedClockValidation validation;

  @BeforeAll
  static void startValidator() {
    validation = new FixedClockValidation();
  }

  @AfterAll
  static void closeValidator() {
    validation.close();
  }

  @AfterEach
  void clearLimits() {
    System.clearProperty(ValidationLimits.MIN_INTERVAL_PROPERTY);
    System.clearProperty(ValidationLimits.MAX_PAYLOAD_BYTES_PROPERTY);
  }

  private static ReminderRequest.Builder oneShot() {
    return ReminderRequest.key("cart-42").at(IN_AN_HOUR);
  }

  /** Asserts exactly one violation, on {@code field}, whose message contains {@code fragment}. */
  private static void assertOnlyViolation(
      ReminderRequest.Builder request, String field, String fragment) {
    List<Violation> violations = validation.violationsOf(request.build());
    assertThat(violations).hasSize(1);
    assertThat(violations.get(0).field()).isEqualTo(field);
    assertThat(violations.get(0).message()).contains(fragment);
  }

  static Stream<ReminderRequest.Builder> validRequests() {
    return Stream.of(
        oneShot(),
        ReminderRequest.key("k").after(Duration.ofMinutes(5)),
        ReminderRequest.key("k").after(Duration.ZERO),
        ReminderRequest.key("k").at(NOW.minus(Duration.ofDays(365 * 99))),
        ReminderRequest.key("k").at(IN_AN_HOUR).every("PT15M"),
        ReminderRequest.key("k").after(Duration.ofMinutes(1)).every("15m").maxOccurrences(3),
        ReminderRequest.key("k").at(IN_AN_HOUR).every("100"),
        ReminderRequest.key("k").cron("0 9 * * MON-FRI", "Europe/Paris"),
        ReminderRequest.key("k")
            .cron("0 9 * * MON-FRI")
            .at(IN_AN_HOUR)
            .until(NOW.plus(Duration.ofDays(30))),
        ReminderRequest.key("k").repeat("R5/2026-11-21T09:00:00Z/PT1H"),
        ReminderRequest.key("k")
            .repeat("R/2026-11-21T09:00:00Z/PT1H")
            .until(Instant.parse("2026-11-22T00:00:00Z"))
            .maxOccurrences(10),
        ReminderRequest.key("k").after(Duration.ofHours(1)).skipIfLaterThan(Duration.ofMinutes(5)),
        ReminderRequest.key("k").after(Duration.ofHours(1)).misfire(MisfirePolicy.SKIP),
        ReminderRequest.key("k").after(Duration.ofHours(1)).misfire(MisfirePolicy.FIRE_ALL),
        oneShot().namespace("shop.eu-1_test"),
        oneShot().key("k".repeat(512)),
        oneShot().key("Ключ/with spaces:and:colons ✓ 🔔"),
        oneShot().payloadJson("{\"cart\": 42, \"items\": [1, 2]}"),
        oneShot().payloadJson("\"just a string\""),
        oneShot().payload(new byte[ValidationLimits.MAX_PAYLOAD_BYTES]),
        oneShot()
            .payload(new byte[] {1, 2, 3}, "application/vnd.shop+json; charset=utf-8")
            .payloadJson("[]"),
        oneShot().payloadText("hello"));
  }

  @ParameterizedTest
  @MethodSource("validRequests")
  void validate_validRequestOfEachKind_noViolation(ReminderRequest.Builder request) {
    assertThat(validation.violationsOf(request.build())).isEmpty();
  }

  @Nested
  class Key {
    @Test
    void validate_keyMissing_reportsKeyRequired() {
      assertOnlyViolation(ReminderRequest.builder().at(IN_AN_HOUR), "key", "is required");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "line\nbreak", "tab\there", "nul\u0000", "bell\u0007", "del\u007f"})
    void validate_keyEmptyOrWithControlCharacter_reportsKey(String key) {
      assertOnlyViolation(oneShot().key(key), "key", "1-512 printable characters");
    }

    @Test
    void validate_keyOf513Characters_reportsKey() {
      assertOnlyViolation(oneShot().key("k".repeat(513)), "key", "1-512 printable characters");
    }

    @Test
    void validate_keyWithUnpairedSurrogate_reportsKey() {
      assertOnlyViolation(oneShot().key("half\uD83D"), "key", "printable");
    }
  }

  @Nested
  class NamespaceRule {
    @ParameterizedTest
    @ValueSource(strings = {"", "has space", "a/b", "a:b", "émoji"})
    void validate_namespaceOutsideAlphabet_reportsNamespace(String namespace) {
      assertOnlyViolation(oneShot().namespace(namespace), "namespace", "1-128 characters");
    }

    @Test
    void validate_namespaceOf129Characters_reportsNamespace() {
      assertOnlyViolation(oneShot().namespace("n".repeat(129)), "namespace", "1-128 characters");
    }
  }

  @Nested
  class FirstFireTime {
    @Test
    void validate_neitherFireAtNorDelay_reportsFireAtRequired() {
      assertOnlyViolation(ReminderRequest.key("k"), "fireAt", "give fireAt or delay");
    }

    @Test
    void validate_everyWithoutFirstTime_reportsFireAtRequired() {
      assertOnlyViolation(ReminderRequest.key("k").every("15m"), "fireAt", "give fireAt or delay");
    }

    @Test
    void validate_bothFireAtAndDelay_reportsDelay() {
      assertOnlyViolation(
          oneShot().after(Duration.ofMinutes(1)), "delay", "cannot be combined with fireAt");
    }

    @Test
    void validate_repeatWithFireAt_reportsFireAt() {
      assertOnlyViolation(
          ReminderRequest.key("k").repeat("R5/2026-11-21T09:00:00Z/PT1H").at(IN_AN_HOUR),
          "fireAt",
          "left out with repeat");
    }

    @Test
    void validate_repeatWithDelay_reportsDelay() {
      assertOnlyViolation(
          ReminderRequest.key("k")
              .repeat("R5/2026-11-21T09:00:00Z/PT1H")
              .after(Duration.ofHours(1)),
          "delay",
          "left out with repeat");
    }

    @Test
    void validate_fireAtMoreThan100YearsAhead_reportsFireAt() {
      assertOnlyViolation(
          oneShot().at(NOW.plus(HUNDRED_YEARS).plusSeconds(1)), "fireAt", "within 100 years");
    }

    @Test
    void validate_fireAtMoreThan100YearsAgo_reportsFireAt() {
      assertOnlyViolation(
          oneShot().at(NOW.minus(HUNDRED_YEARS).minusSeconds(1)), "fireAt", "within 100 years");
    }

    @Test
    void validate_fireAtExactly100YearsAhead_noViolation() {
      assertThat(validation.violationsOf(oneShot().at(NOW.plus(HUNDRED_YEARS)).build())).isEmpty();
    }

    @Test
    void validate_negativeDelay_reportsDelay() {
      assertOnlyViolation(
          ReminderRequest.key("k").after(Duration.ofMillis(-1)),
          "delay",
          "between zero and 100 years");
    }

    @Test
    void validate_delayOver100Years_reportsDelay() {
      assertOnlyViolation(
          ReminderRequest.key("k").after(HUNDRED_YEARS.plusSeconds(1)),
          "delay",
          "between zero and 100 years");
    }
  }

  @Nested
  class Recurrence {
    @Test
    void validate_everyOver100Years_reportsEvery() {
      assertOnlyViolation(oneShot().every("PT100000000000H"), "every", "at most 100 years");
    }

    @Test
    void validate_repeatPeriodOver100Years_reportsRepeat() {
      assertOnlyViolation(
          ReminderRequest.key("k").repeat("R2/2099-01-01T00:00:00Z/PT1000000H"),
          "repeat",
          "at most 100 years");
    }

    @Test
    void validate_everyAndCron_reportsCron() {
      assertOnlyViolation(
          oneShot().every("15m").cron("0 9 * * *"), "cron", "cannot be combined with every");
    }

    @Test
    void validate_allThreeRecurrences_reportsCronAndRepeat() {
      List<Violation> violations =
          validation.violationsOf(
              oneShot()
                  .every("15m")
                  .cron("0 9 * * *")
                  .repeat("R/2026-11-21T09:00:00Z/PT1H")
                  .build());
      assertThat(violations).extracting(Violation::field).containsExactly("cron", "repeat");
      assertThat(violations)
          .allSatisfy(v -> assertThat(v.message()).contains("give one of every, cron or repeat"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"15x", "", "fifteen minutes", "-5m", "0", "5m3h"})
    void validate_everyUnparseable_reportsEveryWithParserMessage(String every) {
      assertOnlyViolation(oneShot().every(every), "every", "interval");
    }

    @Test
    void validate_everyInMonths_reportsEveryExplainingWhy() {
      assertOnlyViolation(
          oneShot().every("P1M"), "every", "months and years are not fixed lengths");
    }

    @Test
    void validate_everyQuotesInput_readable() {
      assertOnlyViolation(
          oneShot().every("15x"), "every", "interval '15x' is not an ISO 8601 duration");
    }

    @Test
    void validate_everyBelowDefaultMinimum_reportsEvery() {
      assertOnlyViolation(
          oneShot().every("99ms"), "every", "must be at least 100 ms (PT0.1S), was 99 ms");
    }

    @Test
    void validate_everyBelowConfiguredMinimum_reportsEvery() {
      System.setProperty(ValidationLimits.MIN_INTERVAL_PROPERTY, "1s");
      assertOnlyViolation(oneShot().every("500ms"), "every", "must be at least 1000 ms");
    }

    @Test
    void validate_cronUnparseable_reportsCron() {
      assertOnlyViolation(ReminderRequest.key("k").cron("61 * * * *"), "cron", "61");
    }

    @Test
    void validate_cronWithTooFewFields_reportsCron() {
      List<Violation> violations =
          validation.violationsOf(ReminderRequest.key("k").cron("0 9 *").build());
      assertThat(violations).extracting(Violation::field).containsExactly("cron");
    }

    @Test
    void validate_unknownZone_reportsZoneOnly() {
      assertOnlyViolation(
          ReminderRequest.key("k").cron("0 9 * * *", "Mars/Olympus_Mons"),
          "zone",
          "unknown time zone 'Mars/Olympus_Mons'");
    }

    @Test
    void validate_unknownZoneAndBadCron_reportsBoth() {
      List<Violation> violations =
          validation.violationsOf(ReminderRequest.key("k").cron("nope", "Nowhere/Land").build());
      assertThat(violations).extracting(Violation::field).containsExactly("cron", "zone");
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "R5/2026-11-21T09:00:00/PT1H",
          "R0/2026-11-21T09:00:00Z/PT1H",
          "R5/2026-11-21T09:00:00Z/P1M",
          "R5/yesterday/PT1H",
          "every hour"
        })
    void validate_repeatUnparseable_reportsRepeat(String repeat) {
      assertOnlyViolation(ReminderRequest.key("k").repeat(repeat), "repeat", "repeating interval");
    }

    @Test
    void validate_repeatPeriodBelowMinimum_reportsRepeat() {
      assertOnlyViolation(
          ReminderRequest.key("k").repeat("R/2026-11-21T09:00:00Z/PT0.05S"),
          "repeat",
          "period must be at least 100 ms");
    }

    @Test
    void validate_repeatStartBeyond100Years_reportsRepeat() {
      assertOnlyViolation(
          ReminderRequest.key("k").repeat("R/2200-01-01T00:00:00Z/PT1H"),
          "repeat",
          "start must be within 100 years");
    }
  }

  @Nested
  class Bounds {
    @Test
    void validate_untilBeforeFireAt_reportsUntil() {
      assertOnlyViolation(
          oneShot().every("15m").until(IN_AN_HOUR.minusSeconds(1)),
          "until",
          "must be after the first fire time " + IN_AN_HOUR);
    }

    @Test
    void validate_untilEqualToFireAt_reportsUntil() {
      assertOnlyViolation(
          oneShot().every("15m").until(IN_AN_HOUR), "until", "must be after the first fire time");
    }

    @Test
    void validate_untilBeforeNowPlusDelay_reportsUntil() {
      assertOnlyViolation(
          ReminderRequest.key("k").after(Duration.ofHours(2)).every("15m").until(IN_AN_HOUR),
          "until",
          "must be after the first fire time " + NOW.plus(Duration.ofHours(2)));
    }

    @Test
    void validate_untilBeforeRepeatStart_reportsUntil() {
      assertOnlyViolation(
          ReminderRequest.key("k")
              .repeat("R/2026-11-21T09:00:00Z/PT1H")
              .until(Instant.parse("2026-11-21T08:00:00Z")),
          "until",
          "2026-11-21T09:00:00Z");
    }

    @Test
    void validate_untilBeforeFirstCronMatch_reportsUntil() {
      // NOW is 12:00 UTC; the first 09:00 match is tomorrow.
      assertOnlyViolation(
          ReminderRequest.key("k").cron("0 9 * * *").until(NOW.plus(Duration.ofHours(2))),
          "until",
          "2026-03-11T09:00:00Z");
    }

    @Test
    void validate_untilBeyond100Years_reportsUntil() {
      assertOnlyViolation(
          oneShot().every("1d").until(NOW.plus(HUNDRED_YEARS).plusSeconds(1)),
          "until",
          "within 100 years");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void validate_maxOccurrencesBelowOne_reportsMaxOccurrences(int max) {
      assertOnlyViolation(
          oneShot().every("15m").maxOccurrences(max), "maxOccurrences", "must be at least 1");
    }
  }

  @Nested
  class Misfire {
    @Test
    void validate_deadlineWithDefaultMisfire_reportsDeadline() {
      assertOnlyViolation(
          oneShot().deadline(Duration.ofMinutes(5)), "deadline", "only applies with misfire SKIP");
    }

    @Test
    void validate_deadlineWithFireAll_reportsDeadline() {
      assertOnlyViolation(
          oneShot().misfire(MisfirePolicy.FIRE_ALL).deadline(Duration.ofMinutes(5)),
          "deadline",
          "only applies with misfire SKIP");
    }

    @Test
    void validate_negativeDeadline_reportsDeadline() {
      assertOnlyViolation(
          oneShot().skipIfLaterThan(Duration.ofSeconds(-1)),
          "deadline",
          "between zero and 100 years");
    }

    @Test
    void validate_zeroDeadlineWithSkip_noViolation() {
      assertThat(validation.violationsOf(oneShot().skipIfLaterThan(Duration.ZERO).build()))
          .isEmpty();
    }

    @Test
    void setMisfire_null_restoresDefaultInsteadOfViolation() {
      ReminderRequest request = oneShot().build();
      request.setMisfire(null);
      request.setDelivery(null);
      assertThat(validation.violationsOf(request)).isEmpty();
      assertThat(request.getMisfire()).isEqualTo(MisfirePolicy.FIRE_ONCE);
      assertThat(request.getDelivery()).isEqualTo(DeliveryMode.AT_MOST_ONCE);
    }
  }

  @Nested
  class PayloadRules {
    @Test
    void validate_payloadOverDefaultLimit_reportsPayload() {
      assertOnlyViolation(
          oneShot().payload(new byte[ValidationLimits.MAX_PAYLOAD_BYTES + 1]),
          "payload",
          "must be at most 65536 bytes, was 65537 bytes");
    }

    @Test
    void validate_payloadOverConfiguredLimit_reportsPayload() {
      System.setProperty(ValidationLimits.MAX_PAYLOAD_BYTES_PROPERTY, "10");
      assertOnlyViolation(oneShot().payload(new byte[11]), "payload", "must be at most 10 bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{bad", "{} trailing", "", "{\"a\":}", "[1,2", "undefined"})
    void validate_malformedJsonPayload_reportsPayload(String json) {
      assertOnlyViolation(oneShot().payloadJson(json), "payload", "is not well-formed JSON");
    }

    @ParameterizedTest
    @ValueSource(strings = {"7", "0", "\"\"", "true", "null", "[]", "{\"é\": \"✓\"}"})
    void validate_wellFormedJsonPayload_shortOrNotAscii_accepted(String json) {
      assertThat(validation.violationsOf(oneShot().payloadJson(json))).isEmpty();
    }

    @Test
    void validate_nonJsonBytesUnderJsonSuffixType_reportsPayload() {
      assertOnlyViolation(
          oneShot().payload(new byte[] {(byte) 0xff}, "application/problem+json"),
          "payload",
          "JSON");
    }

    @Test
    void validate_blankContentType_reportsContentType() {
      assertOnlyViolation(oneShot().contentType(" "), "contentType", "must not be blank");
    }
  }

  @Test
  void validate_inputLookingLikeExpression_isShownLiterallyNotEvaluated() {
    assertOnlyViolation(oneShot().every("${1+1}{max}"), "every", "'${1+1}{max}'");
  }

  @Test
  void validate_severalMistakes_reportsEachOnItsField() {
    ReminderRequest request =
        ReminderRequest.builder()
            .namespace("bad ns")
            .after(Duration.ofMinutes(-1))
            .every("1ms")
            .maxOccurrences(0)
            .payload(new byte[ValidationLimits.MAX_PAYLOAD_BYTES + 1])
            .build();
    assertThat(validation.violationsOf(request))
        .extracting(Violation::field)
        .containsExactly("delay", "every", "key", "maxOccurrences", "namespace", "payload");
  }
}
