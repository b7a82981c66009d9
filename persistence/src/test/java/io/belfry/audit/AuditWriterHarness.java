package io.belfry.audit;

import io.belfry.reminders.api.ReminderActivity;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.time.Duration;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import javax.sql.DataSource;

/**
 * The real {@link AuditWriter} outside the container, for benchmarks: injects what CDI would (the
 * data source, a plain thread factory, a module name), runs its {@code @PostConstruct} and
 * {@code @PreDestroy}, and calls its observer method as the engine's event would.
 */
public final class AuditWriterHarness implements AutoCloseable {

  private final AuditWriter writer = new AuditWriter();

  public AuditWriterHarness(DataSource dataSource, String moduleName) {
    writer.dataSource = dataSource;
    writer.moduleName = moduleName;
    writer.threadFactory = new PlainThreadFactory();
    writer.start();
  }

  /** What the CDI event delivers on the firing thread. */
  public void observe(ReminderActivity activity) {
    writer.onActivity(activity);
  }

  public AuditWriter writer() {
    return writer;
  }

  public boolean awaitWritten(long count, Duration timeout) throws InterruptedException {
    return writer.awaitWrittenMoreThan(count - 1, timeout);
  }

  @Override
  public void close() {
    writer.stop();
  }

  private static final class PlainThreadFactory implements ManagedThreadFactory {
    @Override
    public Thread newThread(Runnable task) {
      Thread thread = new Thread(task);
      thread.setDaemon(true);
      return thread;
    }

    @Override
    public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
      return ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
    }
  }
}
