package io.signalbox.controlplane.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.reconcile.AutomaticDrops;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DropChangesTest {

  private final DropChanges changes = new DropChanges();

  private static AutomaticDrops drops(Map<String, AutomaticDrops.Entry> byCluster) {
    return new AutomaticDrops(true, byCluster);
  }

  @Test
  void aFirstDecisionWithoutADropRecordsNothing() {
    assertThat(changes.next(drops(Map.of()))).isEmpty();
  }

  @Test
  void recordsADropRaisedChangedAndLiftedOnceEach() {
    AutomaticDrops raised = drops(Map.of("greeter", new AutomaticDrops.Entry(125_000, "demand 80 rps over 70 rps")));
    assertThat(changes.next(raised)).containsExactly(new StateChanges.Change(SystemAudit.AUTOMATIC_DROP,
        "cluster greeter", "drops 12.5 % of calls: demand 80 rps over 70 rps"));
    assertThat(changes.next(drops(Map.of("greeter", new AutomaticDrops.Entry(125_000, "demand 81 rps over 70 rps")))))
        .as("the same drop, its words refreshed").isEmpty();
    assertThat(changes.next(drops(Map.of("greeter", new AutomaticDrops.Entry(200_000, "demand 90 rps")))))
        .extracting(StateChanges.Change::reason).containsExactly("drops 20 % of calls: demand 90 rps");
    assertThat(changes.next(drops(Map.of()))).containsExactly(
        new StateChanges.Change(SystemAudit.AUTOMATIC_DROP, "cluster greeter", "lifted"));
  }

  @Test
  void aFollowerRecordsNothingAndStartsAfreshWhenItLeads() {
    changes.next(drops(Map.of("greeter", new AutomaticDrops.Entry(100_000, "x"))));

    assertThat(changes.next(AutomaticDrops.INHERITED)).isEmpty();
    assertThat(changes.next(drops(Map.of("greeter", new AutomaticDrops.Entry(100_000, "x")))))
        .extracting(StateChanges.Change::reason).containsExactly("drops 10 % of calls: x");
  }
}
