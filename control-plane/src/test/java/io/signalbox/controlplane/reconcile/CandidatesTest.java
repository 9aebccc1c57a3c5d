package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.source.FakeClock;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A build is its input to its effects: the ACKs it decides on are the ones in its input, and what
 * it changes elsewhere (a wake-up, quarantine lifts, spent confirmations) comes back as values.
 */
class CandidatesTest {

  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
  // The one fake clock of the control plane's tests; a build reads the time from it alone.
  private final FakeClock clock = new FakeClock(NOW);
  private static final EndpointRef B = new EndpointRef("web", "10.0.0.2", 80);

  private final Candidates candidates = new Candidates(clock, new DesiredStateValidator(), new IncrementalTranslator(),
      new EnvoyResourceValidator()::validate, epoch -> null);
  private final DesiredStateTemplate template = template();

  private static DesiredStateTemplate template() {
    String yaml = """
        clusters:
          - name: web
        """;
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(yaml, "signalbox.yaml", Path.of("/")))
        .value();
    return config::desiredState;
  }

  private static SourceState source(long generation, String... addresses) {
    List<EndpointSpec> endpoints = java.util.Arrays.stream(addresses)
        .map(a -> new EndpointSpec(a, 80, "a", 1, 0, EndpointState.READY, "file:x")).toList();
    return new SourceState("file:x", generation, SourceHealth.FRESH, Map.of("web", endpoints), List.of());
  }

  private Candidates.Input input(SourceState source, Intent intent, Snapshot parent, Set<EndpointRef> acked) {
    return new Candidates.Input(template, new ClusterSpecs(template), List.of(source), intent, parent, acked,
        Provenance.newBuilder().setCause("test").build());
  }

  private static Candidates.Built built(Candidates.Result result) {
    assertThat(result).isInstanceOf(Candidates.Built.class);
    return (Candidates.Built) result;
  }

  private static EndpointState stateOf(Snapshot s, String address) {
    return s.endpoints().get("web").stream().filter(e -> e.address().equals(address)).findFirst()
        .map(EndpointSpec::state).orElse(null);
  }

  @Test
  void anEndpointItsSourceDropsDrainsFirstUntilTheInputSaysEveryClientAckedIt() {
    InMemorySnapshotStore store = new InMemorySnapshotStore(clock);
    Snapshot both = store.append(built(candidates.next(input(source(1, "10.0.0.1", "10.0.0.2"), Intent.NONE, null,
        Set.of()))).candidate().sealer(clock));

    Candidates.Built dropped = built(candidates.next(input(source(2, "10.0.0.1"), Intent.NONE, both, Set.of())));
    Snapshot draining = store.append(dropped.candidate().sealer(clock));

    assertThat(stateOf(draining, "10.0.0.2")).isEqualTo(EndpointState.DRAINING);
    assertThat(dropped.effects().nextWake()).as("the drain's deadline, as a value").isAfter(NOW);
    assertThat(dropped.effects().lifted()).isEmpty();
    assertThat(dropped.effects().spentConfirmations()).isEmpty();

    // Past the drain's deadline: only an ACK in the input lets the endpoint go.
    clock.advance(Duration.between(NOW, dropped.effects().nextWake()));
    Candidates.Built unacked = built(candidates.next(input(source(2, "10.0.0.1"), Intent.NONE, draining, Set.of())));
    Candidates.Built acked = built(candidates.next(input(source(2, "10.0.0.1"), Intent.NONE, draining, Set.of(B))));

    assertThat(store.append(unacked.candidate().sealer(clock)).endpoints().get("web"))
        .extracting(EndpointSpec::address).contains("10.0.0.2");
    assertThat(unacked.effects().nextWake()).as("checked again soon").isAfter(clock.instant());
    assertThat(store.append(acked.candidate().sealer(clock)).endpoints().get("web"))
        .extracting(EndpointSpec::address).containsExactly("10.0.0.1");
  }
}
