package io.belfry.web.rest.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.belfry.reminders.api.InvalidReminderException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Bodies past the JSON parser's limits (a number literal longer than it converts, nesting deeper
 * than it reads) are a 400 naming the field, never an unexpected exception (a 500).
 */
class ParserLimitsTest {

  private static final String HUGE = "9".repeat(5_000);

  @Test
  void hugeNumber_inEvery_namesEvery() {
    assertRefusedOn("every", "{\"every\": " + HUGE + "}");
  }

  @Test
  void hugeNumber_inMaxOccurrences_namesIt() {
    assertRefusedOn("maxOccurrences", "{\"delay\": \"PT1H\", \"maxOccurrences\": " + HUGE + "}");
  }

  @Test
  void hugeExponent_inMaxOccurrences_namesIt() {
    assertRefusedOn("maxOccurrences", "{\"delay\": \"PT1H\", \"maxOccurrences\": 1e999999999}");
  }

  @Test
  void hugeNumber_inThePayload_namesThePayload() {
    assertRefusedOn(
        "payload",
        "{\"delay\": \"PT1H\", \"payload\": {\"n\": " + HUGE + "}}",
        "holds a number the JSON parser cannot read");
  }

  @Test
  void hugeExponent_asThePayload_namesThePayloadAndTheNumber() {
    // found by hand on 2026-11-29: this was refused as "nested too deeply"
    assertRefusedOn(
        "payload",
        "{\"delay\": \"PT1H\", \"payload\": 1e999999999999}",
        "holds a number the JSON parser cannot read");
  }

  @Test
  void deepNesting_namesTheField() {
    String deep = "[".repeat(100_000) + "]".repeat(100_000);
    assertRefusedOn(
        "payload", "{\"delay\": \"PT1H\", \"payload\": " + deep + "}", "is nested too deeply");
  }

  private static void assertRefusedOn(String field, String json, String message) {
    assertThat(refusal(json).getViolations())
        .anySatisfy(
            v -> {
              assertThat(v.field()).isEqualTo(field);
              assertThat(v.message()).startsWith(message);
            });
  }

  private static void assertRefusedOn(String field, String json) {
    assertThat(refusal(json).getViolations())
        .anySatisfy(v -> assertThat(v.field()).isEqualTo(field));
  }

  private static InvalidReminderException refusal(String json) {
    InvalidReminderException refused =
        catchThrowableOfType(
            () ->
                ReminderBody.read(
                    "default",
                    "k",
                    RequestBody.jsonObject(
                        new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)))),
            InvalidReminderException.class);
    assertThat(refused).as("a 400, not another exception").isNotNull();
    return refused;
  }
}
