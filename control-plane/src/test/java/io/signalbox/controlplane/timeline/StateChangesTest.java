package io.signalbox.controlplane.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.reconcile.HeldUpdates;
import io.signalbox.source.SourceHealth;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StateChangesTest {

  private static final Instant T = Instant.parse("2025-01-02T03:00:00Z");
  private final StateChanges changes = new StateChanges();

  private static HeldUpdates.Held massRemoval(String message) {
    return new HeldUpdates.Held("greeter", "mass_removal", message, T);
  }

  private List<StateChanges.Change> held(List<HeldUpdates.Held> held, Set<String> confirmed) {
    return changes.next(held, confirmed, Map.of(), Map.of());
  }

  private List<StateChanges.Change> sources(Map<String, SourceHealth> health, Map<String, List<String>> problems) {
    return changes.next(List.of(), Set.of(), health, problems);
  }

  @Test
  void aHoldIsRecordedOnceWhenRaisedAndOnceWhenReleased() {
    assertThat(held(List.of(massRemoval("removes 3 of 4")), Set.of())).containsExactly(
        new StateChanges.Change(SystemAudit.HOLD, "cluster greeter", "mass_removal: removes 3 of 4"));
    assertThat(held(List.of(massRemoval("removes 3 of 4")), Set.of())).isEmpty();
    assertThat(held(List.of(), Set.of())).containsExactly(new StateChanges.Change(SystemAudit.RELEASE, "cluster greeter",
        "no longer held (mass_removal): the update went out or the input changed"));
    assertThat(held(List.of(), Set.of())).isEmpty();
  }

  @Test
  void aHoldEndingWhileConfirmedWasReleasedByTheConfirmation() {
    held(List.of(massRemoval("removes 3 of 4")), Set.of());

    assertThat(held(List.of(), Set.of("greeter"))).containsExactly(new StateChanges.Change(SystemAudit.RELEASE,
        "cluster greeter", "released by an operator's confirmation (mass_removal)"));
  }

  @Test
  void anotherUpdateHeldInItsPlaceIsANewHold() {
    held(List.of(massRemoval("removes 3 of 4")), Set.of());

    assertThat(held(List.of(massRemoval("removes 4 of 4")), Set.of())).containsExactly(
        new StateChanges.Change(SystemAudit.HOLD, "cluster greeter", "mass_removal: removes 4 of 4"));
  }

  @Test
  void aHeldConfigIsNamedByItsFile() {
    HeldUpdates.Held config = new HeldUpdates.Held(null, "config_removal", "removes 2 of 3 clusters", T, "signalbox.yaml");

    assertThat(held(List.of(config), Set.of())).containsExactly(
        new StateChanges.Change(SystemAudit.HOLD, "config", "config_removal: removes 2 of 3 clusters"));
    assertThat(held(List.of(), Set.of(io.signalbox.controlplane.reconcile.Reconciler.confirmConfigKey()))).extracting(StateChanges.Change::reason)
        .containsExactly("released by an operator's confirmation (config_removal)");
  }

  @Test
  void aSourceFailingAndRecoveringIsRecordedWithItsProblems() {
    assertThat(sources(Map.of("file:a.yaml", SourceHealth.FRESH), Map.of())).isEmpty();
    assertThat(sources(Map.of("file:a.yaml", SourceHealth.FAILED), Map.of("file:a.yaml", List.of("line 3: bad port"))))
        .containsExactly(new StateChanges.Change(SystemAudit.SOURCE_FAILED, "file:a.yaml", "FAILED: line 3: bad port"));
    assertThat(sources(Map.of("file:a.yaml", SourceHealth.FAILED), Map.of("file:a.yaml", List.of("line 3: bad port"))))
        .as("the same failure seen again").isEmpty();
    assertThat(sources(Map.of("file:a.yaml", SourceHealth.FAILED), Map.of("file:a.yaml", List.of("unreadable"))))
        .as("another problem").extracting(StateChanges.Change::reason).containsExactly("FAILED: unreadable");
    assertThat(sources(Map.of("file:a.yaml", SourceHealth.FRESH), Map.of())).containsExactly(
        new StateChanges.Change(SystemAudit.SOURCE_RECOVERED, "file:a.yaml", "FRESH again (was FAILED)"));
  }

  @Test
  void aSourceThatStartsFailedIsRecordedAndOneThatStartsFreshIsNot() {
    assertThat(sources(Map.of("a", SourceHealth.STALE, "b", SourceHealth.FRESH), Map.of()))
        .containsExactly(new StateChanges.Change(SystemAudit.SOURCE_FAILED, "a", "STALE: no problem reported"));
  }
}
