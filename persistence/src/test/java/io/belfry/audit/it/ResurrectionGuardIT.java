package io.belfry.audit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.belfry.audit.AuditDatabase;
import io.belfry.audit.AuditRows;
import io.belfry.audit.PendingAudit;
import io.belfry.reminders.api.DeliveryMode;
import io.belfry.reminders.api.MisfirePolicy;
import io.belfry.reminders.api.ReminderActivity;
import io.belfry.reminders.api.Schedule;
import io.belfry.reminders.config.RemindersCache;
import io.belfry.reminders.model.HybridLogicalClock;
import io.belfry.reminders.model.ReminderCodec;
import io.belfry.reminders.model.ReminderId;
import io.belfry.reminders.model.ReminderRecord;
import io.belfry.reminders.model.ReminderState;
import io.belfry.reminders.store.CacheValues;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.infinispan.Cache;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The resurrection guard on the provisioned server, its real cache and BelfryDS. A file store that
 * lost its index brings back a version that fired long ago, after its tombstone was purged: the
 * cache then holds a pending entry of a version minted before this node started, and only the audit
 * archive remembers that it fired. The scheduler asks the archive before the first fire of such a
 * version and buries it; the same kind of entry that the archive knows nothing of fires.
 */
@ExtendWith(ArquillianExtension.class)
class ResurrectionGuardIT {

  private static final Duration WAIT = Duration.ofSeconds(20);

  @Deployment
  static WebArchive deployment() {
    return AuditDeployments.application(
        "resurrection-it", ResurrectionGuardIT.class, AuditedApplication.class);
  }

  @Inject @RemindersCache Cache<String, String> cache;

  @Inject AuditedApplication application;

  @Resource(lookup = AuditDatabase.DATASOURCE)
  DataSource dataSource;

  @Test
  void anOldVersionTheArchiveShowsFired_isBuriedNotFired_oneItDoesNotKnowFires() throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    Instant due = Instant.now().plusSeconds(2);
    // minted a day ago, as a version that fired before the last restart would have been
    long oldVersion =
        HybridLogicalClock.pack(Instant.now().minus(Duration.ofDays(1)).toEpochMilli(), 7);
    ReminderRecord resurrected =
        pending(ReminderId.of(AuditedApplication.NAMESPACE, "back-" + run), oldVersion, due);
    ReminderRecord unknown =
        pending(ReminderId.of(AuditedApplication.NAMESPACE, "old-" + run), oldVersion, due);
    new AuditRows(dataSource)
        .insert(
            List.of(
                new PendingAudit(
                    "resurrection-it-" + run,
                    new ReminderActivity(
                        ReminderActivity.Type.FIRED,
                        AuditedApplication.NAMESPACE,
                        resurrected.id().key(),
                        oldVersion,
                        1,
                        due.minus(Duration.ofDays(1)),
                        due.minus(Duration.ofDays(1)),
                        "it-node",
                        null),
                    Instant.now())));

    put(resurrected);
    put(unknown);

    assertTrue(
        application.awaitFired(Set.of(unknown.id().key()), WAIT),
        "the old version the archive does not know fires");
    ReminderRecord buried = awaitState(resurrected.id(), ReminderState.FIRED);
    assertEquals(oldVersion, buried.version(), "buried as the version it was");
    Thread.sleep(1_000);
    assertTrue(
        application.lateness(Set.of(resurrected.id().key())).isEmpty(),
        "the resurrected version was not delivered");
    assertEquals(1, firedRows(resurrected.id().key()), "no second FIRED in the archive");
  }

  private void put(ReminderRecord record) {
    cache.put(record.id().cacheKey(), CacheValues.toCache(ReminderCodec.encode(record)));
  }

  private ReminderRecord awaitState(ReminderId id, ReminderState state) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      ReminderRecord record =
          ReminderCodec.decode(id, CacheValues.fromCache(cache.get(id.cacheKey())));
      if (record.state() == state) {
        return record;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(id + " stayed " + record.state());
      }
      Thread.sleep(100);
    }
  }

  private long firedRows(String key) throws Exception {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement count =
            connection.prepareStatement(
                "SELECT COUNT(*) FROM belfry_audit WHERE namespace = ? AND reminder_key = ?"
                    + " AND type = 'FIRED'")) {
      count.setString(1, AuditedApplication.NAMESPACE);
      count.setString(2, key);
      try (ResultSet rows = count.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }

  private static ReminderRecord pending(ReminderId id, long version, Instant due) {
    long created = HybridLogicalClock.millisOf(version);
    return new ReminderRecord(
        id,
        version,
        ReminderState.PENDING,
        new Schedule.Once(),
        due.toEpochMilli(),
        1,
        null,
        null,
        MisfirePolicy.FIRE_ONCE,
        null,
        DeliveryMode.AT_MOST_ONCE,
        "payload".getBytes(StandardCharsets.UTF_8),
        null,
        created,
        created);
  }
}
