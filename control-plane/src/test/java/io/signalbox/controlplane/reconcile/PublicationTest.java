package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.InProcessAds;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.model.EndpointState;
import io.signalbox.model.LbPolicy;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.memory.InMemorySnapshotStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What this process serves: published epochs reach the xDS server (or the first wave only, staged),
 * a follower never moves back, drains are tracked from the epoch they start in and acknowledged
 * once every client holding the cluster ACKed one of them. On the real in-process xDS server and
 * the memory store.
 */
class PublicationTest {

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  private static final EndpointRef WEB_80 = new EndpointRef("web", "10.0.0.1", 80);

  private final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
  private final InMemorySnapshotStore store = new InMemorySnapshotStore(clock);
  private final InProcessAds xds = new InProcessAds(clock);
  private final StoredEpochs epochs = new StoredEpochs(store, clock);
  private Publication publication;

  private Publication publication(boolean staged) {
    publication = new Publication(xds, store, staged, Set::of);
    return publication;
  }

  @AfterEach
  void close() {
    if (publication != null) {
      publication.close();
    }
  }

  private Snapshot web(EndpointState state) {
    return epochs.cluster("web", LbPolicy.ROUND_ROBIN, StoredEpochs.endpoint(80, state),
        StoredEpochs.endpoint(81, EndpointState.READY)).append();
  }

  @Test
  void nothingIsServedBeforeTheFirstEpoch() {
    Publication p = publication(false);

    assertThat(p.current()).isNull();
    assertThat(p.epoch()).isZero();
  }

  @Test
  void aPublishedEpochIsServedRememberedAndItsParentSuperseded() {
    Publication p = publication(false);
    Snapshot first = web(EndpointState.READY);
    Snapshot second = web(EndpointState.DRAINING);

    p.published(null, first, Map.of(), T0);
    p.published(first, second, Map.of(), T0);

    assertThat(xds.current()).isSameAs(second);
    assertThat(p.current()).isSameAs(second);
    assertThat(p.epoch()).isEqualTo(second.epoch());
    assertThat(p.snapshot(first.epoch())).isSameAs(first);
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      assertThat(p.afterPublishBacklog()).isZero();
      assertThat(store.epoch(first.epoch()).orElseThrow().status()).isEqualTo(EpochStatus.SUPERSEDED);
    });
  }

  @Test
  void stagedEpochsGoToTheFirstWaveOnlyAndTheReleaseIsStoredForFollowers() {
    Publication p = publication(true);
    Snapshot first = web(EndpointState.READY);

    p.published(null, first, Map.of(), T0);

    assertThat(xds.releasedTo(0)).isSameAs(first);
    assertThat(store.releases()).containsExactly(Map.entry(0, first.epoch()));
  }

  @Test
  void aFollowerServesWhatTheLeaderCommittedAndNeverMovesBack() {
    Publication p = publication(false);
    Snapshot older = web(EndpointState.READY);
    Snapshot newer = web(EndpointState.DRAINING);

    p.served(new WriterRole.Committed(newer, Map.of()));
    p.served(new WriterRole.Committed(older, Map.of()));

    assertThat(xds.published()).containsExactly(newer);
    assertThat(p.current()).isSameAs(newer);
  }

  @Test
  void aFollowerReleasesEachWaveWhatTheLeaderReleasedToItNeverOlder() {
    Publication p = publication(false);
    Snapshot older = web(EndpointState.READY);
    Snapshot newer = web(EndpointState.DRAINING);

    p.served(new WriterRole.Committed(newer, Map.of(0, newer)));
    p.served(new WriterRole.Committed(newer, Map.of(0, older)));

    assertThat(xds.releasedTo(0)).isSameAs(newer);
    assertThat(xds.published()).containsExactly(newer);
  }

  @Test
  void takingOverServesTheNewestCommittedEpoch() {
    Publication p = publication(false);
    Snapshot latest = web(EndpointState.READY);

    p.tookOver(latest);

    assertThat(xds.current()).isSameAs(latest);
    assertThat(p.epoch()).isEqualTo(latest.epoch());
  }

  @Test
  void aDrainIsTrackedFromTheFirstEpochOfItsRunUntilItEnds() {
    Publication p = publication(false);
    Snapshot ready = web(EndpointState.READY);
    Snapshot draining = web(EndpointState.DRAINING);
    Snapshot stillDraining = epochs.cluster("api", LbPolicy.ROUND_ROBIN, StoredEpochs.endpoint(90,
        EndpointState.READY)).append();

    p.restored(ready);
    p.published(ready, draining, Map.of(), T0);
    p.published(draining, stillDraining, Map.of(), T0);

    assertThat(p.drainingSince(WEB_80)).isEqualTo(draining.epoch());
    assertThat(p.drainingSince()).containsExactly(Map.entry(WEB_80, draining.epoch()));

    Snapshot readyAgain = web(EndpointState.READY);
    p.published(stillDraining, readyAgain, Map.of(), T0);

    assertThat(p.drainingSince(WEB_80)).isNull();
    assertThat(p.drainingSince()).isEmpty();
  }

  @Test
  void aDrainIsAcknowledgedOnceEveryClientHoldingTheClusterAckedADrainingEpoch() {
    Publication p = publication(false);
    Snapshot ready = web(EndpointState.READY);
    p.restored(ready);
    InProcessAds.Client client = xds.connect("node-1");
    client.subscribe(XdsType.ENDPOINT, List.of("web"));
    client.ack(XdsType.ENDPOINT);

    p.published(ready, web(EndpointState.DRAINING), Map.of(), T0);

    assertThat(p.drainsAcknowledged()).as("the client holds the epoch before the drain").isEmpty();
    client.ack(XdsType.ENDPOINT);
    assertThat(p.drainsAcknowledged()).containsExactly(WEB_80);
  }
}
