package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.embedded.EmbeddedDatabase;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.postgres.PostgresSnapshotStore;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreUnavailableException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store work after each published epoch runs in publish order off the writer's thread, never
 * overwrites a status another thread gave, and catches up after a store outage. Against a real
 * PostgreSQL, stopped and started again.
 */
class AfterPublishTest {

  private static final Instant T0 = Instant.parse("2026-11-30T12:00:00Z");

  @TempDir Path dataDir;
  private final Clock clock = Clock.systemUTC();
  private final SnapshotBuilder builder = new SnapshotBuilder();
  private int port;
  private EmbeddedDatabase server;
  private SnapshotStore store;
  private AfterPublish afterPublish;
  private Snapshot last;

  @BeforeEach
  void start() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    server = EmbeddedDatabase.start(dataDir, port);
    store = PostgresSnapshotStore.open(server.jdbcUrl(), EmbeddedDatabase.USER, "", clock);
    afterPublish = new AfterPublish(store, new Retention(store), () -> java.util.Set.of(0L));
  }

  @AfterEach
  void stop() {
    afterPublish.close();
    store.close();
    server.stop();
  }

  /** Appends the next epoch, web's endpoints being {@code web}, as the writer does. */
  private Snapshot append(List<EndpointSpec> web) {
    SnapshotCandidate candidate = builder.candidate(List.of(), Map.of("web", web), last,
        Provenance.newBuilder().setCause("test").build());
    last = store.append(candidate.sealer(Clock.fixed(T0, java.time.ZoneOffset.UTC)));
    return last;
  }

  private static EndpointSpec endpoint(int port, EndpointState state) {
    return new EndpointSpec("10.0.0.1", port, "a", 1, 0, state, "file:x");
  }

  private void published(Snapshot parent, Snapshot snapshot) throws Exception {
    published(parent, snapshot, clock.instant());
  }

  private void published(Snapshot parent, Snapshot snapshot, Instant at) throws Exception {
    afterPublish.published(parent, snapshot, Map.of(), at).get(30, TimeUnit.SECONDS);
  }

  private EpochStatus status(Snapshot s) {
    return store.epoch(s.epoch()).orElseThrow().status();
  }

  @Test
  void marksEachParentSupersededAndAuditsTheTransitionsInPublishOrder() throws Exception {
    Snapshot first = append(List.of(endpoint(80, EndpointState.READY)));
    Snapshot second = append(List.of(endpoint(80, EndpointState.DRAINING)));
    Snapshot third = append(List.of(endpoint(80, EndpointState.DRAINING), endpoint(81, EndpointState.READY)));

    afterPublish.published(null, first, Map.of(), T0);
    afterPublish.published(first, second, Map.of(), T0.plusSeconds(1));
    published(second, third, T0.plusSeconds(2));

    assertThat(List.of(status(first), status(second), status(third)))
        .containsExactly(EpochStatus.SUPERSEDED, EpochStatus.SUPERSEDED, EpochStatus.ACTIVE);
    assertThat(store.auditLog(10)).extracting(AuditEntry::target, AuditEntry::reason).containsExactly(
        org.assertj.core.groups.Tuple.tuple("web/10.0.0.1:81", "new -> READY in epoch 3 (source file:x)"),
        org.assertj.core.groups.Tuple.tuple("web/10.0.0.1:80", "READY -> DRAINING in epoch 2 (source file:x)"));
  }

  @Test
  void aParentTheRolloutAlreadyMarkedSafeStaysSafe() throws Exception {
    Snapshot first = append(List.of(endpoint(80, EndpointState.READY)));
    Snapshot second = append(List.of(endpoint(81, EndpointState.READY)));
    store.setStatus(first.epoch(), EpochStatus.SAFE, "held by 2 client(s) with no NACK");

    published(first, second);

    assertThat(store.epoch(first.epoch()).orElseThrow())
        .extracting(r -> r.status(), r -> r.reason())
        .containsExactly(EpochStatus.SAFE, "held by 2 client(s) with no NACK");
  }

  @Test
  void aParentLeftActiveByAStoreOutageIsMarkedWithTheNextEpoch() throws Exception {
    Snapshot first = append(List.of(endpoint(80, EndpointState.READY)));
    Snapshot second = append(List.of(endpoint(81, EndpointState.READY)));
    Snapshot third = append(List.of(endpoint(82, EndpointState.READY)));

    server.stop();
    published(first, second);
    server = EmbeddedDatabase.start(dataDir, port);
    // The server may still be recovering when it accepts connections.
    await().atMost(Duration.ofSeconds(30)).ignoreException(StoreUnavailableException.class)
        .until(() -> status(first) == EpochStatus.ACTIVE);

    published(second, third);

    assertThat(List.of(status(first), status(second), status(third)))
        .containsExactly(EpochStatus.SUPERSEDED, EpochStatus.SUPERSEDED, EpochStatus.ACTIVE);
  }

  @Test
  void aRestartMarksTheEpochsACrashLeftActiveAndKeepsTheOthers() throws Exception {
    Snapshot first = append(List.of(endpoint(80, EndpointState.READY)));
    Snapshot second = append(List.of(endpoint(81, EndpointState.READY)));
    Snapshot third = append(List.of(endpoint(82, EndpointState.READY)));
    store.setStatus(first.epoch(), EpochStatus.SAFE, "held by 1 client(s) with no NACK");

    // The process died before its queued bookkeeping ran: all but the first are still ACTIVE.
    afterPublish.restored(third).get(30, TimeUnit.SECONDS);

    assertThat(List.of(status(first), status(second), status(third)))
        .containsExactly(EpochStatus.SAFE, EpochStatus.SUPERSEDED, EpochStatus.ACTIVE);
  }
}
