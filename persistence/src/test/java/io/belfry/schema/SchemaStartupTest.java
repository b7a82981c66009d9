package io.belfry.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.belfry.audit.AuditSchema;
import io.belfry.sinks.SinkSchema;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Fresh nodes sharing one database migrate at the same moment, as a fresh cluster's do: every node
 * succeeds and each migration is applied once. Without {@link MigrationLock} two of them both
 * baselined the same empty history table and one failed ("already exists, and is empty").
 */
class SchemaStartupTest {

  private static final int NODES = 4;
  private static final List<VersionedSchema> SCHEMAS =
      List.of(AuditSchema.SCHEMA, SinkSchema.SCHEMA);

  @RepeatedTest(5)
  void freshH2_nodesMigratingAtOnce_allSucceed_eachMigrationAppliedOnce() throws Exception {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:schema-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    h2.setUser("sa");
    migrateAtOnce(h2);
    assertAppliedOnce(h2);
  }

  @Test
  void freshPostgresqlSchema_nodesMigratingAtOnce_allSucceed_eachMigrationAppliedOnce()
      throws Exception {
    try (LocalPostgres.FreshSchema fresh = LocalPostgres.freshSchema("belfry_schema_test_")) {
      PGSimpleDataSource pg = fresh.dataSource();
      migrateAtOnce(pg);
      assertAppliedOnce(pg);
    }
  }

  @Test
  void unreachableDatabase_startFailsAfterTheWait_namingTheCause() {
    PGSimpleDataSource nowhere = new PGSimpleDataSource();
    nowhere.setURL("jdbc:postgresql://127.0.0.1:1/test");
    nowhere.setConnectTimeout(1);
    assertThatThrownBy(() -> SchemaStartup.migrateAll(nowhere, SCHEMAS, Duration.ofSeconds(3)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("BELFRY-0409")
        .hasMessageContaining(SchemaStartup.WAIT_PROPERTY)
        .hasMessageContaining("Connection");
  }

  private static void migrateAtOnce(DataSource dataSource) throws Exception {
    CyclicBarrier start = new CyclicBarrier(NODES);
    ExecutorService nodes = Executors.newFixedThreadPool(NODES);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int i = 0; i < NODES; i++) {
        done.add(
            nodes.submit(
                () -> {
                  start.await();
                  SchemaStartup.migrateAll(dataSource, SCHEMAS, Duration.ofSeconds(60));
                  return null;
                }));
      }
      for (Future<?> node : done) {
        node.get(); // rethrows a node's failure
      }
    } finally {
      nodes.shutdownNow();
    }
  }

  private static void assertAppliedOnce(DataSource dataSource) throws SQLException {
    for (VersionedSchema schema : SCHEMAS) {
      try (Connection c = dataSource.getConnection();
          Statement s = c.createStatement();
          ResultSet rows =
              s.executeQuery(
                  "SELECT COUNT(*), COUNT(DISTINCT \"version\") FROM \""
                      + schema.historyTable()
                      + "\" WHERE \"success\" AND \"version\" <> '0'")) {
        rows.next();
        assertThat(rows.getInt(1)).as(schema.historyTable()).isEqualTo(schema.versionCount());
        assertThat(rows.getInt(2)).as(schema.historyTable()).isEqualTo(schema.versionCount());
      }
    }
  }
}
