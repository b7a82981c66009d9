package io.belfry.web.rest.json;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    assertThatThrownBy(() -> bind("{\"every\": " + HUGE + "}"))
        .isInstanceOfSatisfying(
            InvalidReminderException.class,
            e ->
                org.assertj.core.api.Assertions.assertThat(e.getViolations())
                    .anySatisfy(
                        v ->
                            org.assertj.core.api.Assertions.assertThat(v.field())
                                .isEqualTo("every")));
  }

  @Test
  void hugeNumber_inMaxOccurrences_namesIt() {
    assertThatThrownBy(() -> bind("{\"delay\": \"PT1H\", \"maxOccurrences\": " + HUGE + "}"))
        .isInstanceOfSatisfying(
            InvalidReminderException.class,
            e ->
                org.assertj.core.api.Assertions.assertThat(e.getViolations())
                    .anySatisfy(
                        v ->
                            org.assertj.core.api.Assertions.assertThat(v.field())
                                .isEqualTo("maxOccurrences")));
  }

  @Test
  void hugeExponent_inMaxOccurrences_namesIt() {
    assertThatThrownBy(() -> bind("{\"delay\": \"PT1H\", \"maxOccurrences\": 1e999999999}"))
        .isInstanceOf(InvalidReminderException.class);
  }

  @Test
  void hugeNumber_inThePayload_namesThePayload() {
    assertThatThrownBy(() -> bind("{\"delay\": \"PT1H\", \"payload\": {\"n\": " + HUGE + "}}"))
        .isInstanceOfSatisfying(
            InvalidReminderException.class,
            e ->
                org.assertj.core.api.Assertions.assertThat(e.getViolations())
                    .anySatisfy(
                        v ->
                            org.assertj.core.api.Assertions.assertThat(v.field())
                                .isEqualTo("payload")));
  }

  @Test
  void deepNesting_isABadRequest() {
    String deep = "[".repeat(100_000) + "]".repeat(100_000);
    assertThatThrownBy(() -> bind("{\"delay\": \"PT1H\", \"payload\": " + deep + "}"))
        .isInstanceOfSatisfying(
            InvalidReminderException.class,
            e ->
                org.assertj.core.api.Assertions.assertThat(e.getViolations())
                    .anySatisfy(
                        v ->
                            org.assertj.core.api.Assertions.assertThat(v.field())
                                .isEqualTo("payload")));
  }

  private static void bind(String json) throws Exception {
    ReminderBody.read(
        "default",
        "k",
        RequestBody.jsonObject(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8))));
  }
}
