package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.source.SourceHealth;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@code /readyz} answers: serving an epoch, the store reachable and the intent read, all three. */
class ReconcileStatusTest {

  private static ReconcileStatus status(long epoch, boolean storeAvailable, String intentUnreadable) {
    return new ReconcileStatus(epoch, 0, false, null, storeAvailable, false, intentUnreadable, null,
        Map.of("file:/e.yaml", SourceHealth.FRESH), Map.of(), null, Map.of());
  }

  @Test
  void readyOnlyWhenServingWithTheStoreUpAndTheIntentRead() {
    assertThat(status(3, true, null).ready()).isTrue();
    assertThat(status(0, true, null).ready()).as("nothing served yet").isFalse();
    assertThat(status(3, false, null).ready()).as("store down").isFalse();
    assertThat(status(3, true, "connection refused").ready()).as("intent unread").isFalse();
  }

  @Test
  void problemsAndHeldEjectionsAreSortedCopies() {
    Map<String, List<String>> problems = new HashMap<>(Map.of("registry", List.of("b"), "kubernetes", List.of("a")));
    Map<String, String> held = new HashMap<>(Map.of("web/10.0.0.2:80", "x", "api/10.0.0.1:80", "y"));

    ReconcileStatus s = new ReconcileStatus(3, 0, false, null, true, false, null, null, Map.of(), problems, null,
        held);
    problems.clear();
    held.clear();

    assertThat(s.sourceProblems().keySet()).containsExactly("kubernetes", "registry");
    assertThat(s.heldEjections().keySet()).containsExactly("api/10.0.0.1:80", "web/10.0.0.2:80");
  }
}
