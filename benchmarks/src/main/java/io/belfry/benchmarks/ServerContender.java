package io.belfry.benchmarks;

import io.belfry.reminders.api.ReminderRequest;
import io.belfry.reminders.api.Reminders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Belfry inside the WildFly server, through its Java API: the deployment's injected {@link
 * Reminders} bean, namespace {@value BenchEndpoint#NAMESPACE}. Runs in the bench WAR only ({@link
 * WildFlyBench}); fires reach {@link Fires} through {@link BenchEndpoint}'s CDI observer. The
 * engine belongs to the deployment, so this contender cannot stop it or start it afresh: {@link
 * #close} and {@link #pause} leave it running.
 */
final class ServerContender implements Contender {

  private static final byte[] PAYLOAD = "0123456789abcdef".getBytes(StandardCharsets.UTF_8);

  private final Reminders reminders;

  ServerContender(Reminders reminders) {
    this.reminders = reminders;
  }

  @Override
  public void schedule(int via, String id, long dueMillis) {
    reminders.set(
        ReminderRequest.key(id)
            .namespace(BenchEndpoint.NAMESPACE)
            .at(Instant.ofEpochMilli(dueMillis))
            .payload(PAYLOAD)
            .build());
  }

  @Override
  public void cancel(int via, String id) {
    reminders.cancel(BenchEndpoint.NAMESPACE, id);
  }

  @Override
  public void pause() {
    throw new UnsupportedOperationException("the engine of a deployment runs while it is deployed");
  }

  @Override
  public long storedBytes() throws java.io.IOException {
    String data = System.getProperty("jboss.server.data.dir");
    return data == null ? 0 : BelfryContender.sizeOf(Path.of(data, "infinispan"));
  }

  @Override
  public void close() {
    // the deployment owns the engine; nothing to release here
  }
}
