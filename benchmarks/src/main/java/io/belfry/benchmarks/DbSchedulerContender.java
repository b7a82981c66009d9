package io.belfry.benchmarks;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * db-scheduler on the local PostgreSQL: {@code n} scheduler instances in this JVM, each with its
 * own connection pool, competing for one table {@value #TABLE}. Tuned as its README and
 * docs/performance.md recommend for high throughput: the {@code lock-and-fetch} polling strategy
 * ({@code SELECT … FOR UPDATE SKIP LOCKED}) with limits {@code 1.0, 4.0}, and a polling interval
 * lowered from the default 10 s (its docs set no lower bound; precision depends on it).
 */
final class DbSchedulerContender implements Contender {

  static final String TABLE = "bench_scheduled_tasks";
  private static final String TASK = "bench-task";

  /** Connections per instance: PostgreSQL here allows 100 in all, shared with other users. */
  static final int MAX_POOL = 12;

  private final OneTimeTask<Void> task =
      Tasks.oneTime(TASK).execute((instance, context) -> Fires.fired(instance.getId()));
  private final List<HikariDataSource> pools = new ArrayList<>();
  private final List<Scheduler> schedulers = new ArrayList<>();
  private final Postgres postgres;
  private SchedulerClient client;

  DbSchedulerContender(
      Postgres postgres, int instances, boolean fresh, int threads, Duration polling)
      throws SQLException {
    this.postgres = postgres;
    if (fresh) {
      postgres.resetSchema();
      createTable(postgres);
    }
    for (int i = 0; i < instances; i++) {
      HikariDataSource pool = postgres.pool("db-scheduler-" + i, Math.min(threads + 2, MAX_POOL));
      pools.add(pool);
      Scheduler scheduler =
          Scheduler.create(pool, task)
              .schedulerName(new SchedulerName.Fixed("db-scheduler-" + i))
              .tableName(TABLE)
              .threads(threads)
              .pollingInterval(polling)
              .pollUsingLockAndFetch(1.0, 4.0)
              .build();
      schedulers.add(scheduler);
    }
    schedulers.forEach(Scheduler::start);
  }

  /** The table of its PostgreSQL DDL (README: "Database (see link for DDL)"), under our name. */
  private static void createTable(Postgres postgres) throws SQLException {
    postgres.execute(
        "CREATE TABLE "
            + TABLE
            + " (task_name text NOT NULL, task_instance text NOT NULL, task_data bytea,"
            + " execution_time timestamp with time zone NOT NULL, picked boolean NOT NULL,"
            + " picked_by text, last_success timestamp with time zone,"
            + " last_failure timestamp with time zone, consecutive_failures int,"
            + " last_heartbeat timestamp with time zone, version bigint NOT NULL,"
            + " priority smallint, PRIMARY KEY (task_name, task_instance))",
        "CREATE INDEX bench_st_execution_time_idx ON " + TABLE + " (execution_time)",
        "CREATE INDEX bench_st_last_heartbeat_idx ON " + TABLE + " (last_heartbeat)",
        "CREATE INDEX bench_st_priority_execution_time_idx ON "
            + TABLE
            + " (priority DESC, execution_time ASC)");
  }

  private SchedulerClient via(int via) {
    return client != null ? client : schedulers.get(via % schedulers.size());
  }

  @Override
  public void schedule(int via, String id, long dueMillis) {
    if (!via(via).scheduleIfNotExists(task.instance(id), Instant.ofEpochMilli(dueMillis))) {
      throw new IllegalStateException("not scheduled: " + id);
    }
  }

  @Override
  public void cancel(int via, String id) {
    via(via).cancel(TaskInstanceId.of(TASK, id));
  }

  @Override
  public void scheduleAll(List<String> ids, long dueMillis) {
    List<TaskInstance<?>> batch = new ArrayList<>(ids.size());
    ids.forEach(id -> batch.add(task.instance(id)));
    via(0).scheduleBatch(batch, Instant.ofEpochMilli(dueMillis));
  }

  @Override
  public void pause() {
    schedulers.forEach(Scheduler::stop);
    client = SchedulerClient.Builder.create(pools.get(0), task).tableName(TABLE).build();
  }

  @Override
  public long storedBytes() throws SQLException {
    postgres.execute("VACUUM ANALYZE " + TABLE);
    return postgres.schemaBytes();
  }

  @Override
  public void close() {
    if (client == null) {
      schedulers.forEach(Scheduler::stop);
    }
    pools.forEach(HikariDataSource::close);
  }
}
