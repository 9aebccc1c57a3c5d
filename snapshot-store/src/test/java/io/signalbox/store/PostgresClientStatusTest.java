package io.signalbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresClientStatusTest extends ClientStatusContract {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();

  private String url;

  @Override
  SnapshotStore openStore(Clock clock) {
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
    store.saveClientStatuses(List.of(client));
    NackEvent event = nack("envoy-1", 2, 2, T0, List.of("a"));
    store.recordNack(event);
    store.close();

    store = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), clock);
    store.disconnectClients(java.util.Set.of());

    assertThat(store.epochs(10, Long.MAX_VALUE))
        .extracting(EpochRecord::epoch, EpochRecord::status, EpochRecord::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(2L, EpochStatus.REJECTED,
                "node 'envoy-1' NACKed CLUSTER: cluster 'a': bad lb policy"),
            org.assertj.core.groups.Tuple.tuple(1L, EpochStatus.SAFE, "held by 1 client(s) with no NACK"));
    assertThat(store.clientStatuses()).containsExactly(client.disconnected(T0));
    assertThat(store.nackEvents(2L)).containsExactly(event);
  }
}
