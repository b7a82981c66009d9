package io.belfry.reminders.archive;

import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.sink.SinkSettings;
import java.time.Duration;
import java.time.Instant;

/**
 * Activities and sink settings as arrays of strings, the only shape that crosses between two
 * deployments' class loaders through {@link NodeArchive}'s MBean. Both sides use this class, each
 * its own copy, so the layout cannot drift between them.
 */
public final class ActivityCodec {

  private ActivityCodec() {}

  public static String[] encode(ReminderActivity a) {
    return new String[] {
      a.type().name(),
      a.namespace(),
      a.key(),
      Long.toString(a.version()),
      Long.toString(a.occurrence()),
      a.dueAt() == null ? null : Long.toString(a.dueAt().toEpochMilli()),
      Long.toString(a.at().toEpochMilli()),
      a.node(),
      a.detail(),
      a.principal()
    };
  }

  public static ReminderActivity decode(String[] f) {
    return new ReminderActivity(
        ReminderActivity.Type.valueOf(f[0]),
        f[1],
        f[2],
        Long.parseLong(f[3]),
        Long.parseLong(f[4]),
        f[5] == null ? null : Instant.ofEpochMilli(Long.parseLong(f[5])),
        Instant.ofEpochMilli(Long.parseLong(f[6])),
        f[7],
        f[8],
        f[9]);
  }

  public static String[] encode(SinkSettings s) {
    return new String[] {
      s.webhookUrl(),
      s.secret(),
      Long.toString(s.timeout().toMillis()),
      s.jmsUrl(),
      s.jmsDestination(),
      s.jmsUser(),
      s.jmsPassword()
    };
  }

  public static SinkSettings decodeSink(String[] f) {
    return new SinkSettings(
        f[0], f[1], Duration.ofMillis(Long.parseLong(f[2])), f[3], f[4], f[5], f[6]);
  }
}
