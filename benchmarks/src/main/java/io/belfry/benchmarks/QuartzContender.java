package io.belfry.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.SchedulerRepository;
import org.quartz.impl.StdSchedulerFactory;

/**
 * Quartz 2.x on the local PostgreSQL: {@code n} clustered scheduler instances in this JVM (one
 * scheduler name, an instance id each, a HikariCP pool each) on the JDBC job store ({@code
 * JobStoreTX}, {@code PostgreSQLDelegate}, tables {@value #PREFIX}*, created from the DDL shipped
 * in the Quartz jar). Tuned for throughput as its configuration reference describes: batch trigger
 * acquisition of up to one trigger per worker thread, acquired within the lock, and the shortest
 * legal idle wait (1 s). Each job is a one-shot, non-durable job with one simple trigger.
 */
final class QuartzContender implements Contender {

  static final String PREFIX = "BENCH_QRTZ_";
  private static final String NAME = "BelfryBenchQuartz";
  private static final String GROUP = "bench";

  /** The task body: counts its execution. Public with a no-arg constructor for Quartz. */
  public static final class Task implements Job {
    @Override
    public void execute(JobExecutionContext context) {
      Fires.fired(context.getJobDetail().getKey().getName());
    }
  }

  private final List<Scheduler> schedulers = new ArrayList<>();
  private final Postgres postgres;

  QuartzContender(Postgres postgres, int instances, boolean fresh, int threads)
      throws SQLException, SchedulerException, IOException {
    this.postgres = postgres;
    if (fresh) {
      postgres.resetSchema();
      createTables(postgres);
    }
    for (int i = 0; i < instances; i++) {
      Properties p = new Properties();
      p.setProperty("org.quartz.scheduler.instanceName", NAME);
      p.setProperty("org.quartz.scheduler.instanceId", "quartz-" + i);
      p.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
      p.setProperty("org.quartz.scheduler.idleWaitTime", "1000");
      p.setProperty(
          "org.quartz.scheduler.batchTriggerAcquisitionMaxCount", Integer.toString(threads));
      p.setProperty("org.quartz.threadPool.threadCount", Integer.toString(threads));
      p.setProperty("org.quartz.jobStore.class", "org.quartz.impl.jdbcjobstore.JobStoreTX");
      p.setProperty(
          "org.quartz.jobStore.driverDelegateClass",
          "org.quartz.impl.jdbcjobstore.PostgreSQLDelegate");
      p.setProperty("org.quartz.jobStore.tablePrefix", PREFIX);
      p.setProperty("org.quartz.jobStore.isClustered", "true");
      p.setProperty("org.quartz.jobStore.clusterCheckinInterval", "5000");
      p.setProperty("org.quartz.jobStore.acquireTriggersWithinLock", "true");
      String ds = "bench" + i;
      p.setProperty("org.quartz.jobStore.dataSource", ds);
      p.setProperty("org.quartz.dataSource." + ds + ".provider", "hikaricp");
      p.setProperty("org.quartz.dataSource." + ds + ".driver", "org.postgresql.Driver");
      p.setProperty("org.quartz.dataSource." + ds + ".URL", postgres.schemaUrl());
      p.setProperty("org.quartz.dataSource." + ds + ".user", postgres.user());
      p.setProperty("org.quartz.dataSource." + ds + ".password", "");
      p.setProperty(
          "org.quartz.dataSource." + ds + ".maxConnections",
          Integer.toString(Math.min(threads + 2, DbSchedulerContender.MAX_POOL)));
      Scheduler scheduler = new StdSchedulerFactory(p).getScheduler();
      // One JVM holds every instance: take each out of the JVM-wide registry (keyed by the shared
      // scheduler name) so that the next factory builds a new instance instead of returning this.
      SchedulerRepository.getInstance().remove(NAME);
      schedulers.add(scheduler);
    }
    for (Scheduler s : schedulers) {
      s.start();
    }
  }

  private static void createTables(Postgres postgres) throws IOException, SQLException {
    String ddl;
    try (InputStream in =
        Scheduler.class.getResourceAsStream("/org/quartz/impl/jdbcjobstore/tables_postgres.sql")) {
      ddl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<String> statements = new ArrayList<>();
    StringBuilder sql = new StringBuilder();
    for (String line : ddl.split("\n")) {
      if (!line.strip().startsWith("--")) {
        sql.append(line).append('\n');
      }
    }
    for (String statement : sql.toString().split(";")) {
      String s = statement.strip();
      if (!s.isEmpty() && !s.equalsIgnoreCase("COMMIT")) {
        statements.add(s.replace("QRTZ_", PREFIX));
      }
    }
    postgres.execute(statements.toArray(String[]::new));
  }

  private static JobDetail job(String id) {
    return JobBuilder.newJob(Task.class).withIdentity(id, GROUP).build();
  }

  private static Trigger trigger(String id, long dueMillis) {
    return TriggerBuilder.newTrigger()
        .withIdentity(id, GROUP)
        .startAt(new Date(dueMillis))
        .withSchedule(
            SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
        .build();
  }

  @Override
  public void schedule(int via, String id, long dueMillis) throws SchedulerException {
    schedulers.get(via % schedulers.size()).scheduleJob(job(id), trigger(id, dueMillis));
  }

  @Override
  public void cancel(int via, String id) throws SchedulerException {
    if (!schedulers.get(via % schedulers.size()).deleteJob(new JobKey(id, GROUP))) {
      throw new IllegalStateException("not found: " + id);
    }
  }

  @Override
  public void scheduleAll(List<String> ids, long dueMillis) throws SchedulerException {
    Map<JobDetail, Set<? extends Trigger>> jobs = new HashMap<>();
    for (String id : ids) {
      jobs.put(job(id), Set.of(trigger(id, dueMillis)));
    }
    schedulers.get(0).scheduleJobs(jobs, false);
  }

  @Override
  public void pause() throws SchedulerException {
    for (Scheduler s : schedulers) {
      s.standby();
    }
  }

  @Override
  public long storedBytes() throws SQLException {
    postgres.execute(
        "VACUUM ANALYZE "
            + PREFIX
            + "JOB_DETAILS, "
            + PREFIX
            + "TRIGGERS, "
            + PREFIX
            + "SIMPLE_TRIGGERS");
    return postgres.schemaBytes();
  }

  @Override
  public void close() {
    for (Scheduler s : schedulers) {
      try {
        s.shutdown(true);
      } catch (SchedulerException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
