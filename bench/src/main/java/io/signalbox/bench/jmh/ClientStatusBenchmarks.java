package io.signalbox.bench.jmh;

import io.signalbox.store.ClientRecord;
import io.signalbox.store.embedded.EmbeddedDatabase;
import io.signalbox.store.postgres.PostgresSnapshotStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the client status recorder's write costs: after a change every connected client's row of
 * the changed type is upserted, in one batch, into the embedded PostgreSQL.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ClientStatusBenchmarks {

  @Param({"1000"})
  int rows;

  private Path dataDir;
  private EmbeddedDatabase server;
  private PostgresSnapshotStore store;
  private long epoch;

  @Setup
  public void setUp() throws IOException, SQLException {
    dataDir = Files.createTempDirectory("signalbox-bench-postgres");
    server = EmbeddedDatabase.start(dataDir);
    try (Connection c = DriverManager.getConnection(server.jdbcUrl(), EmbeddedDatabase.USER, "");
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE clients");
    }
    store = PostgresSnapshotStore.open(server.jdbcUrl("clients"), EmbeddedDatabase.USER, "", Clock.systemUTC());
    store.clients().save(batch());
  }

  /** Every client's EDS row after one more epoch: a new sent and acked version, a new time. */
  private List<ClientRecord> batch() {
    epoch++;
    Instant now = Instant.now();
    List<ClientRecord> out = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      out.add(new ClientRecord(
          new ClientRecord.Key("host-a/1@1", "client-" + i, i, "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment"),
          "fleet", "zone-a", "grpc-java 1.68",
          new ClientRecord.Position(Long.toString(epoch), epoch, now, Long.toString(epoch), epoch, now, epoch),
          null, 0, now, true));
    }
    return out;
  }

  @Benchmark
  public List<ClientRecord> saveEveryClientsRow() {
    List<ClientRecord> b = batch();
    store.clients().save(b);
    return b;
  }

  @TearDown
  public void tearDown() throws IOException {
    store.close();
    server.stop();
    try (Stream<Path> paths = Files.walk(dataDir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
