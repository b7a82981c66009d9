package io.belfry.sinks;

import io.belfry.audit.AuditDatabase;
import io.belfry.audit.QueryTimeout;
import io.belfry.reminders.config.ContainerResources;
import io.belfry.reminders.sink.SinkDirectory;
import io.belfry.reminders.sink.SinkException;
import io.belfry.reminders.sink.SinkSettings;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * The {@link SinkDirectory} on {@code BelfryDS}, table {@code belfry_sink}: one configuration for
 * the whole cluster, changed at run time through the API or the console.
 *
 * <p>Fires read a copy of the whole table (one row per namespace that has a sink, so a handful),
 * never older than {@link #CACHE_TTL}: a fire costs no query, and a change made on another node
 * reaches this one within that delay (a change made here is seen at once). The copy is refreshed
 * ahead, by the first fire after half the TTL while the others go on with the copy, so fires rarely
 * wait for the table; they wait only when the copy has reached the TTL or was invalidated by a
 * change made here, since using it then would break those promises (several fires due together used
 * to deliver past a change while one of them reloaded). If the table cannot be read, fires keep the
 * last copy, and the failure is retried a TTL later; only a node that never read it fails its fires
 * (the fire is then audited or retried, as its delivery mode says). A read that hangs rather than
 * fails (a database taking over after its server died: a pool or driver reconnecting) holds up no
 * fire: the table is read on the server's managed executor, never on a fire's thread; the first
 * fire to find the copy expired waits for the read at most {@link #LOAD_WAIT}, then it and every
 * later fire go on with the last copy until the read ends (a node with no copy yet waits for the
 * read however long it takes, as before). Without that bound, every delivery of a node stopped
 * until the database answered (7.7 s when a three-node cluster lost the node that served its H2
 * file, docs/performance/cluster.md). The schema was migrated at deployment start ({@link
 * io.belfry.schema.SchemaStartup}), never here: a lazy migration on the delivery threads of nodes
 * sharing a fresh database raced, and the loser failed every delivery.
 */
@ApplicationScoped
public class JdbcSinkDirectory implements SinkDirectory {

  private static final Logger LOG = Logger.getLogger(JdbcSinkDirectory.class);

  /** How old a copy of the configuration a fire may use: 5 s. */
  public static final Duration CACHE_TTL = Duration.ofSeconds(5);

  /**
   * How long a fire whose copy has expired waits for a read under way before it goes on with the
   * last copy; a node that never read the table has none, and waits for the read however long.
   */
  public static final Duration LOAD_WAIT = Duration.ofSeconds(1);

  private static final int QUERY_TIMEOUT_SECONDS = 2;

  private static final String COLUMNS =
      "namespace, webhook_url, webhook_secret, timeout_ms, updated_at, updated_by, jms_url,"
          + " jms_destination, jms_user, jms_password";

  @Resource(lookup = AuditDatabase.DATASOURCE)
  private DataSource dataSource;

  /**
   * Where the table is read, never on a fire's thread: the server's default managed executor, by
   * its global name ({@code java:comp/DefaultManagedExecutorService} is not bound on every thread
   * that may create this bean: a delivery failed on it).
   */
  @Resource(lookup = ContainerResources.BACKGROUND)
  private ExecutorService loader;

  private final LongSupplier nanoTime;
  private final ReentrantLock loading = new ReentrantLock();

  /** The copy the fires read; replaced whole, never changed. */
  private volatile Copy copy;

  /** After a failed load with no copy to fall back on: fail fast until then (nanoTime). */
  private volatile long failingUntil;

  private volatile SQLException lastFailure;

  /**
   * Set when a fire gave up waiting for the read under way: later fires do not wait for it again.
   * Cleared when a read ends.
   */
  private volatile boolean loadOverdue;

  /** When BELFRY-0421 was last logged (nanoTime): at most once per TTL. */
  private volatile long lastStuckWarning = Long.MIN_VALUE / 2;

  private record Copy(Map<String, SinkSettings> sinks, long loadedAt) {}

  /** For CDI, which injects {@code BelfryDS}. */
  public JdbcSinkDirectory() {
    this.nanoTime = System::nanoTime;
    this.failingUntil = nanoTime.getAsLong();
  }

  /** On a given datasource, clock and loader, outside the container (unit tests). */
  JdbcSinkDirectory(DataSource dataSource, LongSupplier nanoTime, ExecutorService loader) {
    this.dataSource = dataSource;
    this.loader = loader;
    this.nanoTime = nanoTime;
    this.failingUntil = nanoTime.getAsLong();
  }

  @Override
  public Optional<SinkSettings> forNamespace(String namespace) {
    Copy current = copy;
    if (current == null || expired(current)) {
      current = awaitReload(current);
    } else if (refreshDue(current)) {
      reloadInBackground(current);
    }
    return Optional.ofNullable(current.sinks().get(namespace));
  }

  /** A read ahead, on the loader: the fire goes on with its copy whatever the read does. */
  private void reloadInBackground(Copy seen) {
    if (loading.isLocked()) {
      return; // one under way
    }
    try {
      loader.execute(
          () -> {
            try {
              reload(seen, false);
            } catch (RuntimeException e) {
              LOG.debugf("BELFRY-0422 Reading the sink configuration ahead failed: %s", e);
            }
          });
    } catch (RejectedExecutionException e) {
      // stopping, or the executor is full: a later fire tries again
    }
  }

  /**
   * A read on the loader, waited for at most {@link #LOAD_WAIT}: the fire never reads the table
   * itself, so a read that hangs holds up no fire for longer than that.
   */
  private Copy awaitReload(Copy seen) {
    // with no copy to fall back on, a fire waits for the read as long as it takes, as it always
    // did: failing it after LOAD_WAIT would lose an at-most-once delivery to a slow database
    boolean bounded = copy != null;
    if (bounded && loadOverdue && loading.isLocked()) {
      return stuckLoad(seen); // a fire already waited LOAD_WAIT for this read: no need to again
    }
    CompletableFuture<Copy> load;
    try {
      load = CompletableFuture.supplyAsync(() -> reload(seen, true), loader);
    } catch (RejectedExecutionException e) {
      return reload(seen, true); // no loader thread to be had: read on this one
    }
    try {
      return bounded ? load.get(LOAD_WAIT.toMillis(), TimeUnit.MILLISECONDS) : load.get();
    } catch (TimeoutException e) {
      return stuckLoad(seen);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return stuckLoad(seen);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      throw new SinkException("the sink configuration cannot be read: " + e.getCause(), e);
    }
  }

  private boolean expired(Copy c) {
    return nanoTime.getAsLong() - c.loadedAt() >= CACHE_TTL.toNanos();
  }

  /** Half the TTL: time to read the table again while the copy is still good to use. */
  private boolean refreshDue(Copy c) {
    return nanoTime.getAsLong() - c.loadedAt() >= CACHE_TTL.toNanos() / 2;
  }

  /**
   * One load at a time, on the loader. A read ahead ({@code wait} false) gives way to one under
   * way. A read for a fire whose copy has expired, or that has none, waits for the one under way,
   * up to LOAD_WAIT, then reads.
   */
  private Copy reload(Copy seen, boolean wait) {
    if (!lockToLoad(wait)) {
      if (wait) {
        return stuckLoad(seen);
      }
      return seen;
    }
    try {
      Copy current = copy;
      if (current != null && current != seen && !refreshDue(current)) {
        return current;
      }
      long now = nanoTime.getAsLong();
      if (current == null && now - failingUntil < 0) {
        throw unreadable(lastFailure);
      }
      try {
        Copy fresh = new Copy(loadAll(), now);
        copy = fresh;
        return fresh;
      } catch (SQLException e) {
        lastFailure = e;
        if (current != null) {
          LOG.warnf(
              "BELFRY-0420 The sink configuration cannot be read (%s); fires keep the copy of %d s"
                  + " ago and it is read again in %s",
              e.getMessage(), Duration.ofNanos(now - current.loadedAt()).toSeconds(), CACHE_TTL);
          Copy kept = new Copy(current.sinks(), now);
          copy = kept;
          return kept;
        }
        failingUntil = now + CACHE_TTL.toNanos();
        throw unreadable(e);
      }
    } finally {
      loadOverdue = false;
      loading.unlock();
    }
  }

  /**
   * Takes the load lock: at once or not at all ({@code wait} false), else within LOAD_WAIT, or for
   * as long as it takes while there is no copy to fall back on.
   */
  private boolean lockToLoad(boolean wait) {
    if (!wait) {
      return loading.tryLock();
    }
    try {
      if (copy == null) {
        loading.lockInterruptibly();
        return true;
      }
      return loading.tryLock(LOAD_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * A read under way has outlasted {@link #LOAD_WAIT}: the last copy, as after a failed read, or,
   * with none, the failure a fire gets when the table cannot be read.
   */
  private Copy stuckLoad(Copy seen) {
    loadOverdue = true;
    Copy current = copy;
    if (current == null) {
      throw new SinkException(
          "the sink configuration cannot be read: a read has been under way for more than "
              + LOAD_WAIT.toMillis()
              + " ms");
    }
    long now = nanoTime.getAsLong();
    if (now - lastStuckWarning >= CACHE_TTL.toNanos()) {
      lastStuckWarning = now;
      LOG.warnf(
          "BELFRY-0421 Reading the sink configuration has taken more than %d ms; fires go on with"
              + " the copy of %d s ago",
          LOAD_WAIT.toMillis(), Duration.ofNanos(now - current.loadedAt()).toSeconds());
    }
    return current;
  }

  private static SinkException unreadable(SQLException e) {
    return new SinkException(
        "the sink configuration cannot be read: " + (e == null ? "unknown" : e.getMessage()), e);
  }

  /** The next fire reads the table again (a change made here is seen at once). */
  private void invalidate() {
    loading.lock();
    try {
      Copy current = copy;
      if (current != null) {
        copy = new Copy(current.sinks(), nanoTime.getAsLong() - CACHE_TTL.toNanos());
      }
      failingUntil = nanoTime.getAsLong();
    } finally {
      loading.unlock();
    }
  }

  @SuppressWarnings("try") // the QueryTimeout resource is used by being closed
  private Map<String, SinkSettings> loadAll() throws SQLException {
    try (Connection c = connection();
        PreparedStatement select = c.prepareStatement("SELECT " + COLUMNS + " FROM belfry_sink");
        QueryTimeout limit = QueryTimeout.of(select, QUERY_TIMEOUT_SECONDS)) {
      Map<String, SinkSettings> sinks = new HashMap<>();
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          sinks.put(rows.getString(1), settings(rows));
        }
      }
      return Map.copyOf(sinks);
    }
  }

  @Override
  @SuppressWarnings("try") // the QueryTimeout resource is used by being closed
  public Optional<StoredSink> read(String namespace) {
    try (Connection c = connection();
        PreparedStatement select =
            c.prepareStatement("SELECT " + COLUMNS + " FROM belfry_sink WHERE namespace = ?");
        QueryTimeout limit = QueryTimeout.of(select, QUERY_TIMEOUT_SECONDS)) {
      select.setString(1, namespace);
      try (ResultSet rows = select.executeQuery()) {
        if (!rows.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new StoredSink(
                namespace,
                settings(rows),
                rows.getObject(5, OffsetDateTime.class).toInstant(),
                rows.getString(6)));
      }
    } catch (SQLException e) {
      throw unreadable(e);
    }
  }

  @Override
  public boolean save(String namespace, SinkSettings settings, String principal) {
    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
    try (Connection c = connection()) {
      boolean created = false;
      if (update(c, namespace, settings, principal, now) == 0) {
        try {
          insert(c, namespace, settings, principal, now);
          created = true;
        } catch (SQLException e) {
          if (!isDuplicateKey(e)) {
            throw e;
          }
          // another admin created it meanwhile: this change replaces theirs
          update(c, namespace, settings, principal, now);
        }
      }
      invalidate();
      return created;
    } catch (SQLException e) {
      throw new SinkException("the sink configuration cannot be saved: " + e.getMessage(), e);
    }
  }

  @Override
  public boolean remove(String namespace) {
    try (Connection c = connection();
        PreparedStatement delete =
            c.prepareStatement("DELETE FROM belfry_sink WHERE namespace = ?")) {
      delete.setString(1, namespace);
      boolean removed = delete.executeUpdate() > 0;
      invalidate();
      return removed;
    } catch (SQLException e) {
      throw new SinkException("the sink configuration cannot be saved: " + e.getMessage(), e);
    }
  }

  private static int update(
      Connection c, String namespace, SinkSettings s, String principal, OffsetDateTime now)
      throws SQLException {
    try (PreparedStatement update =
        c.prepareStatement(
            "UPDATE belfry_sink SET webhook_url = ?, webhook_secret = ?, timeout_ms = ?,"
                + " updated_at = ?, updated_by = ?, jms_url = ?, jms_destination = ?,"
                + " jms_user = ?, jms_password = ? WHERE namespace = ?")) {
      bind(update, s, principal, now);
      update.setString(10, namespace);
      return update.executeUpdate();
    }
  }

  private static void insert(
      Connection c, String namespace, SinkSettings s, String principal, OffsetDateTime now)
      throws SQLException {
    try (PreparedStatement insert =
        c.prepareStatement(
            "INSERT INTO belfry_sink (webhook_url, webhook_secret, timeout_ms, updated_at,"
                + " updated_by, jms_url, jms_destination, jms_user, jms_password, namespace)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      bind(insert, s, principal, now);
      insert.setString(10, namespace);
      insert.executeUpdate();
    }
  }

  private static void bind(
      PreparedStatement statement, SinkSettings s, String principal, OffsetDateTime now)
      throws SQLException {
    statement.setString(1, s.webhookUrl());
    statement.setString(2, s.secret());
    statement.setLong(3, s.timeout().toMillis());
    statement.setObject(4, now);
    statement.setString(5, principal);
    statement.setString(6, s.jmsUrl());
    statement.setString(7, s.jmsDestination());
    statement.setString(8, s.jmsUser());
    statement.setString(9, s.jmsPassword());
  }

  private static boolean isDuplicateKey(SQLException e) {
    return e.getSQLState() != null && e.getSQLState().startsWith("23");
  }

  private static SinkSettings settings(ResultSet row) throws SQLException {
    return new SinkSettings(
        row.getString(2),
        row.getString(3),
        Duration.ofMillis(row.getLong(4)),
        row.getString(7),
        row.getString(8),
        row.getString(9),
        row.getString(10));
  }

  private Connection connection() throws SQLException {
    return dataSource.getConnection();
  }
}
