package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.replica.Role;
import io.signalbox.controlplane.xds.AdsServer;
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.store.RejectedCandidate;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A config file refused before it reaches the writer is one standing rejection: saved again with
 * the same problems it is not news (not recorded again, so the server does not warn again).
 */
class ConfigRejectionTest {

  private final Clock clock = Clock.systemUTC();
  private final InMemorySnapshotStore store = new InMemorySnapshotStore(clock);
  private AdsServer xds;
  private Reconciler reconciler;

  @BeforeEach
  void start() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    xds = AdsServer.start("127.0.0.1", 0, clock, meters);
    reconciler = new Reconciler(clock, store, xds, new DesiredStateValidator(), new IncrementalTranslator(),
        new EnvoyResourceValidator()::validate, Duration.ofMillis(1), Duration.ofMillis(10), meters);
    reconciler.role(Role.standalone(store));
    reconciler.start(null);
  }

  @AfterEach
  void stop() {
    reconciler.close();
    xds.close();
  }

  private static RejectedCandidate refused(String... problems) {
    return new RejectedCandidate(Instant.parse("2026-12-04T06:00:00Z"), "config file changed", List.of(problems));
  }

  @Test
  void theSameProblemsAgainAreNotNewsButOtherProblemsAre() {
    String port = "signalbox.yaml: line 1, column 14: xds.port: must be <= 65535, was 70000 [server]";

    assertThat(reconciler.rejectInput(refused(port))).isTrue();
    assertThat(reconciler.rejectInput(refused(port))).isFalse();
    assertThat(store.rejections(10)).hasSize(1);

    assertThat(reconciler.rejectInput(refused(port, "signalbox.yaml: line 2: another [parse]"))).isTrue();
    assertThat(store.rejections(10)).hasSize(2);
  }
}
