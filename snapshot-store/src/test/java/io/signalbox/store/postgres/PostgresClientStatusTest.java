package io.signalbox.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.store.ClientRecord;
import io.signalbox.store.ClientStatusContract;
import io.signalbox.store.EnvelopeSealer;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.NackEvent;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.embedded.PostgresExtension;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresClientStatusTest extends ClientStatusContract {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();

  private String url;

  @Override
  protected SnapshotStore openStore(Clock clock) {
    url = postgres.newDatabase();
    return PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), clock);
  }

  @Test
  void aRestartKeepsRejectedEpochsAndTheOldClientsAsDisconnected() {
    store.append(EnvelopeSealer.because("startup"));
    store.append(EnvelopeSealer.because("config reload"));
    store.setStatus(1, EpochStatus.SAFE, "held by 1 client(s) with no NACK");
    store.setStatus(2, EpochStatus.REJECTED, "node 'envoy-1' NACKed CLUSTER: cluster 'a': bad lb policy");
    ClientRecord client = nacked(key("host-a/1", "envoy-1", 7, CDS), T0);
    store.clients().save(List.of(client));
    NackEvent event = nack("envoy-1", 2, 2, T0, List.of("a"));
    store.clients().recordNack(event);
    store.close();

    store = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), clock);
    store.clients().disconnectAllBut(java.util.Set.of());

    assertThat(store.epochs(10, Long.MAX_VALUE))
        .extracting(EpochRecord::epoch, EpochRecord::status, EpochRecord::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(2L, EpochStatus.REJECTED,
                "node 'envoy-1' NACKed CLUSTER: cluster 'a': bad lb policy"),
            org.assertj.core.groups.Tuple.tuple(1L, EpochStatus.SAFE, "held by 1 client(s) with no NACK"));
    assertThat(store.clients().all()).containsExactly(client.disconnected(T0));
    assertThat(store.clients().nacksOf(2L)).containsExactly(event);
  }

  /**
   * The recorder rewrites about one row per client on every change; an update can stay on its page
   * (a heap-only tuple, no index entries) only if no index covers a column it changes, and all it
   * changes are the non-key columns.
   */
  @Test
  void indexesCoverOnlyTheKeySoStatusUpdatesCanStayOnTheirPage() throws Exception {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, postgres.user(), postgres.password());
        java.sql.Statement s = c.createStatement()) {
      java.util.Set<String> indexed = new java.util.TreeSet<>();
      try (java.sql.ResultSet r = s.executeQuery("""
          SELECT a.attname FROM pg_index i
          JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
          WHERE i.indrelid = 'client_status'::regclass""")) {
        while (r.next()) {
          indexed.add(r.getString(1));
        }
      }
      assertThat(indexed).containsExactlyInAnyOrder("replica", "node_id", "stream_id", "type_url");
      try (java.sql.ResultSet r = s.executeQuery("SELECT reloptions FROM pg_class WHERE relname = 'client_status'")) {
        assertThat(r.next()).isTrue();
        assertThat(r.getString(1)).contains("fillfactor=70");
      }
    }
  }
}
