package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.AuditTrail;
import io.signalbox.store.RejectedCandidate;
import io.signalbox.store.StoreUnavailableException;
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.validation.Violation;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A refused input is recorded, counted and shown once while it stays refused, and stops showing
 * once an input accepted after it replaces it; a config refusal outlives builds of the old config.
 */
class RejectionsTest {

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  private static final Violation BAD_PORT = Violation.error("port.range", "file:/e.yaml", "clusters.web[0].port",
      "must be 1..65535, was 0");
  private static final Violation BAD_ROUTE = Violation.error("route.cluster", "", "routeConfigs.web",
      "names unknown cluster 'api'");

  private final InMemorySnapshotStore store = new InMemorySnapshotStore(Clock.fixed(T0, ZoneOffset.UTC));
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final Rejections rejections = new Rejections(store, meters);

  private double counted(String name) {
    return meters.counter(name).count();
  }

  @Test
  void aRefusedBuildIsRecordedCountedAndShownWithTheInputsItIsAbout() {
    rejections.refusedBuild(T0, "source file:/e.yaml generation 2", List.of(BAD_PORT, BAD_ROUTE), 7, 1);

    LastRejection last = rejections.last();
    assertThat(last.at()).isEqualTo(T0);
    assertThat(last.cause()).isEqualTo("source file:/e.yaml generation 2");
    assertThat(last.violations()).containsExactly(
        "file:/e.yaml: clusters.web[0].port: must be 1..65535, was 0 [port.range]",
        "routeConfigs.web: names unknown cluster 'api' [route.cluster]");
    assertThat(last.inputs()).containsExactly("file:/e.yaml", "config");
    assertThat(last.superseded()).isFalse();
    assertThat(store.rejections(10)).extracting(RejectedCandidate::cause)
        .containsExactly("source file:/e.yaml generation 2");
    assertThat(counted("signalbox_epochs_rejected")).isEqualTo(1);
    assertThat(counted("signalbox_validation_violations")).isEqualTo(2);
  }

  @Test
  void theSameViolationsRefusedAgainAreOneRejectionKeepingTheFirstCauseAndTime() {
    rejections.refusedBuild(T0, "source file:/e.yaml generation 2", List.of(BAD_PORT), 7, 1);

    rejections.refusedBuild(T0.plusSeconds(30), "source registry generation 9", List.of(BAD_PORT), 7, 1);

    assertThat(rejections.last().at()).isEqualTo(T0);
    assertThat(rejections.last().cause()).isEqualTo("source file:/e.yaml generation 2");
    assertThat(store.rejections(10)).hasSize(1);
    assertThat(counted("signalbox_epochs_rejected")).isEqualTo(1);
  }

  @Test
  void otherViolationsAreANewRejection() {
    rejections.refusedBuild(T0, "a", List.of(BAD_PORT), 7, 1);

    rejections.refusedBuild(T0.plusSeconds(1), "b", List.of(BAD_PORT, BAD_ROUTE), 7, 1);

    assertThat(rejections.last().cause()).isEqualTo("b");
    assertThat(store.rejections(10)).hasSize(2);
    assertThat(counted("signalbox_validation_violations")).isEqualTo(3);
  }

  @Test
  void anAcceptedBuildSupersedesABuildRejectionAndTheSameViolationsLaterAreNewAgain() {
    rejections.refusedBuild(T0, "a", List.of(BAD_PORT), 7, 1);

    rejections.accepted(T0.plusSeconds(5), 1);

    assertThat(rejections.last().supersededAt()).isEqualTo(T0.plusSeconds(5));
    rejections.refusedBuild(T0.plusSeconds(9), "c", List.of(BAD_PORT), 8, 1);
    assertThat(rejections.last().superseded()).isFalse();
    assertThat(rejections.last().at()).isEqualTo(T0.plusSeconds(9));
    assertThat(store.rejections(10)).hasSize(2);
  }

  @Test
  void aConfigRejectionHoldsThroughBuildsOfTheOldConfigUntilALaterConfigIsBuilt() {
    assertThat(rejections.record(new RejectedCandidate(T0, "config file changed", List.of(BAD_ROUTE.toString())),
        List.of("/etc/signalbox.yaml"), Rejections.Origin.CONFIG, 3)).isTrue();

    rejections.accepted(T0.plusSeconds(1), 3);
    assertThat(rejections.last().superseded()).as("a build of the config offered before the refusal").isFalse();

    rejections.accepted(T0.plusSeconds(2), 4);
    assertThat(rejections.last().supersededAt()).isEqualTo(T0.plusSeconds(2));
  }

  @Test
  void anAcceptanceWithNothingRefusedOrAlreadySupersededChangesNothing() {
    rejections.accepted(T0, 1);
    assertThat(rejections.last()).isNull();

    rejections.refusedBuild(T0, "a", List.of(BAD_PORT), 7, 1);
    rejections.accepted(T0.plusSeconds(1), 1);
    rejections.accepted(T0.plusSeconds(2), 2);

    assertThat(rejections.last().supersededAt()).isEqualTo(T0.plusSeconds(1));
  }

  @Test
  void aRejectionTheStoreCannotRecordIsStillShownAndCounted() {
    AuditTrail down = new AuditTrail() {
      @Override
      public void recordRejection(RejectedCandidate candidate) {
        throw new StoreUnavailableException("connection refused", null);
      }

      @Override
      public List<RejectedCandidate> rejections(int limit) {
        throw new StoreUnavailableException("connection refused", null);
      }

      @Override
      public void audit(AuditEntry entry) {
        throw new StoreUnavailableException("connection refused", null);
      }

      @Override
      public List<AuditEntry> auditLog(int limit) {
        throw new StoreUnavailableException("connection refused", null);
      }
    };
    Rejections offline = new Rejections(down, meters);

    offline.refusedBuild(T0, "a", List.of(BAD_PORT), 7, 1);

    assertThat(offline.last().violations()).hasSize(1);
    assertThat(counted("signalbox_epochs_rejected")).isEqualTo(1);
  }

  @Test
  void theInputsOfViolationsAreTheirDistinctSourcesInOrderTheConfigUnnamed() {
    Violation other = Violation.error("weight.range", "file:/f.yaml", "x", "y");

    assertThat(Rejections.inputsOf(List.of(BAD_ROUTE, BAD_PORT, other, BAD_PORT, BAD_ROUTE)))
        .containsExactly("config", "file:/e.yaml", "file:/f.yaml");
  }
}
