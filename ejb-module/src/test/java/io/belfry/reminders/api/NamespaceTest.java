package io.belfry.reminders.api;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Qualifier;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

class NamespaceTest {

  @SuppressWarnings("unused")
  void shopObserver(@Namespace("shop") ReminderFired fired) {}

  private static Namespace declaredOnObserver() throws NoSuchMethodException {
    Method observer = NamespaceTest.class.getDeclaredMethod("shopObserver", ReminderFired.class);
    return (Namespace) observer.getParameterAnnotations()[0][0];
  }

  @Test
  void literal_sameValue_equalsDeclaredAnnotation() throws Exception {
    Namespace declared = declaredOnObserver();
    assertThat(Namespace.Literal.of("shop")).isEqualTo(declared).hasSameHashCodeAs(declared);
    assertThat(declared).isEqualTo(Namespace.Literal.of("shop"));
  }

  @Test
  void literal_otherValue_notEqual() throws Exception {
    assertThat(Namespace.Literal.of("billing")).isNotEqualTo(declaredOnObserver());
  }

  @Test
  void annotation_isCdiQualifier() {
    assertThat(Namespace.class.isAnnotationPresent(Qualifier.class)).isTrue();
  }
}
