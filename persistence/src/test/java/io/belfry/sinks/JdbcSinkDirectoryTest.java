package io.belfry.sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.reminders.sink.SinkDirectory.StoredSink;
import io.belfry.reminders.sink.SinkException;
import io.belfry.reminders.sink.SinkSettings;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link JdbcSinkDirectory} on an in-memory H2, with a hand-driven clock and a switchable outage.
 */
class JdbcSinkDirectoryTest {

  private static final String SECRET = "sixteen-chars-ok";

  private final JdbcDataSource h2 = new JdbcDataSource();
  private final AtomicLong nanos = new AtomicLong(-1_000_000_000L);
  private final java.util.concurrent.ExecutorService loader =
      java.util.concurrent.Executors.newCachedThreadPool();
  private volatile boolean down;
  private volatile CountDownLatch hang = new CountDownLatch(0);
  private final CountDownLatch hanging = new CountDownLatch(1);
  private Connection keepOpen;
  private JdbcSinkDirectory directory;

  @BeforeEach
  void database(org.junit.jupiter.api.TestInfo test) throws SQLException {
    h2.setURL("jdbc:h2:mem:sinks-" + test.getDisplayName().hashCode());
    h2.setUser("sa");
    keepOpen = h2.getConnection();
    // as SchemaStartup does when the deployment starts; the migration tests migrate for themselves
    if (!test.getTestMethod().orElseThrow().getName().startsWith("migrate_")) {
      SinkSchema.migrate(h2);
    }
    directory = new JdbcSinkDirectory(switchable(), nanos::get, loader);
  }

  @AfterEach
  void close() throws SQLException {
    loader.shutdownNow();
    try (Statement drop = keepOpen.createStatement()) {
      drop.execute("DROP ALL OBJECTS");
    }
    keepOpen.close();
  }

  /** The H2 datasource, refusing connections while {@link #down}. */
  private DataSource switchable() {
    return (DataSource)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getConnection") && down) {
                throw new SQLException("database down (test)", "08001");
              }
              if (method.getName().equals("getConnection") && hang.getCount() > 0) {
                hanging.countDown();
                hang.await(10, TimeUnit.SECONDS);
              }
              try {
                return method.invoke(h2, args);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  private void advance(Duration d) {
    nanos.addAndGet(d.toNanos());
  }

  private void updateBehindItsBack(String sql) throws SQLException {
    try (Statement statement = keepOpen.createStatement()) {
      statement.executeUpdate(sql);
    }
  }

  @Test
  void save_newThenReplace_createdThenReplaced_readShowsTheLatestAndWho() {
    SinkSettings first = SinkSettings.webhook("http://127.0.0.1:9/a", SECRET);
    SinkSettings second =
        SinkSettings.webhook("https://example.com/b", SECRET + "2")
            .withTimeout(Duration.ofMillis(1500));

    assertThat(directory.save("shop", first, "alice")).isTrue();
    assertThat(directory.save("shop", second, "bob")).isFalse();

    StoredSink stored = directory.read("shop").orElseThrow();
    assertThat(stored.settings()).isEqualTo(second);
    assertThat(stored.updatedBy()).isEqualTo("bob");
    assertThat(stored.updatedAt()).isNotNull();
    assertThat(directory.read("other")).isEmpty();
  }

  @Test
  void save_jmsSinkWithCredentials_readBackWhole_thenWebhookOnlyClearsIt() {
    SinkSettings both =
        SinkSettings.webhook("https://example.com/b", SECRET)
            .withJms("tcp://127.0.0.1:61616", "topic:belfry.fires", "belfry", "broker-password");
    directory.save("shop", both, "alice");
    assertThat(directory.read("shop").orElseThrow().settings()).isEqualTo(both);
    assertThat(directory.forNamespace("shop")).contains(both);

    SinkSettings webhookOnly = SinkSettings.webhook("https://example.com/b", SECRET);
    directory.save("shop", webhookOnly, "bob");
    assertThat(directory.read("shop").orElseThrow().settings()).isEqualTo(webhookOnly);
  }

  @Test
  void migrate_fromV1_keepsTheWebhookRows_withoutJms() throws SQLException {
    new io.belfry.schema.VersionedSchema(
            SinkSchema.LOCATION,
            java.util.List.of("V1__sinks.sql"),
            SinkSchema.HISTORY_TABLE,
            SinkSchema.class.getClassLoader())
        .migrate(h2);
    updateBehindItsBack(
        "INSERT INTO belfry_sink (namespace, webhook_url, webhook_secret, timeout_ms, updated_at,"
            + " updated_by) VALUES ('shop', 'https://example.com/v1', '"
            + SECRET
            + "', 2000, CURRENT_TIMESTAMP, 'v1')");

    assertThat(SinkSchema.migrate(h2)).as("V2, at the next deployment start").isEqualTo(1);
    assertThat(directory.read("shop").orElseThrow().settings())
        .isEqualTo(
            SinkSettings.webhook("https://example.com/v1", SECRET)
                .withTimeout(Duration.ofSeconds(2)));
  }

  @Test
  void remove_existing_trueAndGone_missing_false() {
    directory.save("shop", SinkSettings.webhook("http://127.0.0.1:9/a", SECRET), "alice");

    assertThat(directory.remove("shop")).isTrue();
    assertThat(directory.remove("shop")).isFalse();
    assertThat(directory.read("shop")).isEmpty();
    assertThat(directory.forNamespace("shop")).isEmpty();
  }

  @Test
  void forNamespace_changeOnAnotherNode_seenWithinTheCacheTtl() throws SQLException {
    directory.save("shop", SinkSettings.webhook("http://127.0.0.1:9/a", SECRET), "alice");
    assertThat(directory.forNamespace("shop").orElseThrow().webhookUrl())
        .isEqualTo("http://127.0.0.1:9/a");

    updateBehindItsBack("UPDATE belfry_sink SET webhook_url = 'http://127.0.0.1:9/b'");
    advance(JdbcSinkDirectory.CACHE_TTL.dividedBy(2).minusMillis(1));
    assertThat(directory.forNamespace("shop").orElseThrow().webhookUrl())
        .as("before half the TTL, the copy")
        .isEqualTo("http://127.0.0.1:9/a");

    // refreshed ahead from half the TTL on; at the TTL at the latest
    advance(JdbcSinkDirectory.CACHE_TTL.dividedBy(2).plusMillis(1));
    assertThat(directory.forNamespace("shop").orElseThrow().webhookUrl())
        .isEqualTo("http://127.0.0.1:9/b");
  }

  @Test
  void forNamespace_namespaceWithoutSink_emptyAndCachedToo() throws SQLException {
    assertThat(directory.forNamespace("shop")).isEmpty();

    updateBehindItsBack(
        "INSERT INTO belfry_sink (namespace, webhook_url, webhook_secret, timeout_ms, updated_at,"
            + " updated_by) VALUES ('shop', 'http://127.0.0.1:9/a', '"
            + SECRET
            + "', 1000, CURRENT_TIMESTAMP, 'x')");
    assertThat(directory.forNamespace("shop")).isEmpty();
    advance(JdbcSinkDirectory.CACHE_TTL);
    assertThat(directory.forNamespace("shop")).isPresent();
  }

  @Test
  void forNamespace_saveOnThisNode_seenAtOnce() {
    assertThat(directory.forNamespace("shop")).isEmpty();

    directory.save("shop", SinkSettings.webhook("http://127.0.0.1:9/a", SECRET), "alice");

    assertThat(directory.forNamespace("shop")).isPresent();
  }

  @Test
  void forNamespace_databaseDownAfterALoad_keepsTheCopy() {
    directory.save("shop", SinkSettings.webhook("http://127.0.0.1:9/a", SECRET), "alice");
    assertThat(directory.forNamespace("shop")).isPresent();

    down = true;
    advance(JdbcSinkDirectory.CACHE_TTL.multipliedBy(3));

    assertThat(directory.forNamespace("shop")).isPresent();
    assertThatThrownBy(() -> directory.read("shop")).isInstanceOf(SinkException.class);
  }

  @Test
  void forNamespace_databaseDownSinceStart_throwsThenRecovers() {
    down = true;
    assertThatThrownBy(() -> directory.forNamespace("shop"))
        .isInstanceOf(SinkException.class)
        .hasMessageContaining("cannot be read");
    down = false;
    assertThatThrownBy(() -> directory.forNamespace("shop"))
        .as("fails fast until a TTL has passed")
        .isInstanceOf(SinkException.class);

    advance(JdbcSinkDirectory.CACHE_TTL);
    assertThat(directory.forNamespace("shop")).isEmpty();
  }

  @Test
  void forNamespace_refreshAfterHalfTheTtl_otherFiresUseTheCopyWithoutWaiting() throws Exception {
    directory.save("shop", SinkSettings.webhook("http://127.0.0.1:9/a", SECRET), "alice");
    assertThat(directory.forNamespace("shop")).isPresent();
    advance(JdbcSinkDirectory.CACHE_TTL.dividedBy(2));
    hang = new CountDownLatch(1);

    CompletableFuture<?> reloading = CompletableFuture.runAsync(() -> directory.forNamespace("x"));
    assertThat(hanging.await(5, TimeUnit.SECONDS)).as("the reload waits on the database").isTrue();
    reloading.get(500, TimeUnit.MILLISECONDS); // the fire that asked for it did not wait either

    assertThat(directory.forNamespace("shop")).as("the copy, at once").isPresent();
    hang.countDown();
  }

  @Test
  void forNamespace_copyAtTheTtl_firesWaitForTheReloadUnderWay_andSeeTheChange() throws Exception {
    directory.save("shop", SinkSettings.webhook("http://127.0.0.1:9/a", SECRET), "alice");
    assertThat(directory.forNamespace("shop")).isPresent();
    updateBehindItsBack("UPDATE belfry_sink SET webhook_url = 'http://127.0.0.1:9/b'");
    advance(JdbcSinkDirectory.CACHE_TTL);
    hang = new CountDownLatch(1);

    CompletableFuture<?> reloading = CompletableFuture.runAsync(() -> directory.forNamespace("x"));
    assertThat(hanging.await(5, TimeUnit.SECONDS)).as("the reload waits on the database").isTrue();
    CompletableFuture<String> other =
        CompletableFuture.supplyAsync(
            () -> directory.forNamespace("shop").orElseThrow().webhookUrl());
    Thread.sleep(200);
    assertThat(other).as("a copy as old as the TTL is not used").isNotDone();

    hang.countDown();
    reloading.get(5, TimeUnit.SECONDS);
    assertThat(other.get(5, TimeUnit.SECONDS)).isEqualTo("http://127.0.0.1:9/b");
  }

  @Test
  void forNamespace_copyAtTheTtl_reloadHangingPastTheWait_firesGoOnWithTheLastCopy()
      throws Exception {
    directory.save("shop", SinkSettings.webhook("http://127.0.0.1:9/a", SECRET), "alice");
    assertThat(directory.forNamespace("shop")).isPresent();
    advance(JdbcSinkDirectory.CACHE_TTL);
    hang = new CountDownLatch(1);

    CompletableFuture<?> reloading = CompletableFuture.runAsync(() -> directory.forNamespace("x"));
    try {
      assertThat(hanging.await(5, TimeUnit.SECONDS))
          .as("the reload waits on the database")
          .isTrue();
      long start = System.nanoTime();
      String url = directory.forNamespace("shop").orElseThrow().webhookUrl();
      Duration waited = Duration.ofNanos(System.nanoTime() - start);

      assertThat(url).as("the last copy").isEqualTo("http://127.0.0.1:9/a");
      assertThat(waited)
          .as("waited for the reload, at most about LOAD_WAIT")
          .isGreaterThanOrEqualTo(JdbcSinkDirectory.LOAD_WAIT)
          .isLessThan(JdbcSinkDirectory.LOAD_WAIT.plusSeconds(4));
      long again = System.nanoTime();
      assertThat(directory.forNamespace("shop")).as("the next fire, the last copy").isPresent();
      assertThat(Duration.ofNanos(System.nanoTime() - again))
          .as("the next fire does not wait for the same read again")
          .isLessThan(JdbcSinkDirectory.LOAD_WAIT.dividedBy(2));
    } finally {
      hang.countDown();
    }
    reloading.get(5, TimeUnit.SECONDS);
  }

  @Test
  void forNamespace_noCopyYet_readHangingPastTheWait_fireWaitsForItAndDelivers() throws Exception {
    directory.save("shop", SinkSettings.webhook("http://127.0.0.1:9/a", SECRET), "alice");
    JdbcSinkDirectory fresh = new JdbcSinkDirectory(switchable(), nanos::get, loader);
    hang = new CountDownLatch(1);

    CompletableFuture<String> first =
        CompletableFuture.supplyAsync(() -> fresh.forNamespace("shop").orElseThrow().webhookUrl());
    try {
      assertThat(hanging.await(5, TimeUnit.SECONDS)).as("the read waits on the database").isTrue();
      Thread.sleep(JdbcSinkDirectory.LOAD_WAIT.toMillis() + 500);
      assertThat(first).as("no copy to fall back on: still waiting, not failed").isNotDone();
    } finally {
      hang.countDown();
    }
    assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("http://127.0.0.1:9/a");
  }
}
