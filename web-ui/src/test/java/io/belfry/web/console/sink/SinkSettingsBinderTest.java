package io.belfry.web.console.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.data.binder.Binder;
import io.belfry.reminders.sink.SinkSettings;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The console's form writes {@link SinkSettings} with {@code Binder.writeRecord}, which takes the
 * record's first constructor: this breaks if a second constructor is added (it did once).
 */
class SinkSettingsBinderTest {

  @Test
  void writeRecord_everyField_buildsTheSettings() throws Exception {
    Binder<SinkSettings> binder = new Binder<>(SinkSettings.class);
    Map<String, TextField> fields =
        Map.of(
            "webhookUrl", new TextField(),
            "secret", new TextField(),
            "jmsUrl", new TextField(),
            "jmsDestination", new TextField(),
            "jmsUser", new TextField(),
            "jmsPassword", new TextField());
    fields.forEach((name, field) -> binder.forField(field).withNullRepresentation("").bind(name));
    TextField timeout = new TextField();
    binder
        .forField(timeout)
        .withNullRepresentation("")
        .withConverter(
            t -> t == null ? null : Duration.parse(t), d -> d == null ? null : d.toString())
        .bind("timeout");
    binder.readRecord(SinkSettings.webhook(null, null, SinkSettings.DEFAULT_TIMEOUT));
    fields.get("jmsUrl").setValue("tcp://127.0.0.1:61616");
    fields.get("jmsDestination").setValue("queue:q");

    assertThat(binder.writeRecord())
        .isEqualTo(SinkSettings.jms("tcp://127.0.0.1:61616", "queue:q"));
  }
}
