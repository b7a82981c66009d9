package io.belfry.reminders.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.api.InvalidReminderException.Violation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InvalidReminderExceptionTest {

  @Test
  void from_constraintViolations_fieldIsPropertyPathSortedAndListedInMessage() {
    try (FixedClockValidation validation = new FixedClockValidation()) {
      ReminderRequest request = ReminderRequest.builder().every("1ms").build();
      InvalidReminderException e = InvalidReminderException.from(validation.validate(request));
      assertThat(e.getViolations())
          .extracting(Violation::field)
          .containsExactly("every", "fireAt", "key");
      assertThat(e.getMessage())
          .startsWith("invalid reminder: every: must be at least 100 ms")
          .contains("; key: is required");
      assertThat(validation.violationsOf(request)).isEqualTo(e.getViolations());
    }
  }

  @Test
  void getViolations_modified_throwsAndStaysIntact() {
    List<Violation> source = new ArrayList<>(List.of(new Violation("key", "is required")));
    InvalidReminderException e = new InvalidReminderException(source);
    source.clear();
    assertThat(e.getViolations()).hasSize(1);
    assertThatThrownBy(() -> e.getViolations().add(new Violation("x", "y")))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void of_singleViolation_messageNamesField() {
    assertThat(InvalidReminderException.of("namespace", "is not served here").getMessage())
        .isEqualTo("invalid reminder: namespace: is not served here");
  }

  @Test
  void constructor_noViolations_rejected() {
    assertThatThrownBy(() -> new InvalidReminderException(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void notFound_controlCharactersInKey_escapedInMessage() {
    ReminderNotFoundException e = new ReminderNotFoundException("shop", "a\nb");
    assertThat(e.getMessage()).isEqualTo("no reminder 'a\\u000ab' in namespace 'shop'");
    assertThat(e.getKey()).isEqualTo("a\nb");
    assertThat(e.getNamespace()).isEqualTo("shop");
  }
}
