package io.signalbox.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GuardsTest {

  private static List<EndpointSpec> ready(int n) {
    List<EndpointSpec> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add(new EndpointSpec("10.0.0." + i, 80, "a", 1, 0, EndpointState.READY, "file:x"));
    }
    return out;
  }

  private static List<Guards.Hold> check(List<EndpointSpec> before, List<EndpointSpec> after, Set<String> intended) {
    return Guards.check(Map.of("web", before), Map.of("web", after), ClusterSpec::named, intended);
  }

  @Test
  void holdsAnUpdateRemovingMoreThanHalfAClusterWithAnExactMessage() {
    assertThat(check(ready(10), ready(4), Set.of())).containsExactly(new Guards.Hold("web", Guards.MASS_REMOVAL,
        "cluster 'web': one update takes 6 of 10 eligible endpoints out (60%), more than massRemovalPercent 50"));
    assertThat(check(ready(10), ready(5), Set.of())).isEmpty();
  }

  @Test
  void aSourceThatSuddenlyReportsNothingIsHeld() {
    assertThat(Guards.check(Map.of("web", ready(3)), Map.of(), ClusterSpec::named, Set.of()))
        .extracting(Guards.Hold::rule).containsExactly(Guards.MASS_REMOVAL);
  }

  @Test
  void holdsAClusterThatWouldLoseItsLastEligibleEndpoint() {
    List<EndpointSpec> drained = List.of(ready(1).get(0).withState(EndpointState.DRAINING));

    assertThat(check(ready(1), drained, Set.of("web/10.0.0.1:80"))).containsExactly(new Guards.Hold("web",
        Guards.MIN_ELIGIBLE, "cluster 'web': would have 0 eligible endpoint(s), fewer than minEligible 1 (has 1)"));
  }

  @Test
  void operatorChangesDoNotCountAsRemovals() {
    List<EndpointSpec> after = new ArrayList<>(ready(4));
    after.set(0, after.get(0).withState(EndpointState.DRAINING));
    after.set(1, after.get(1).withState(EndpointState.DRAINING));
    after.set(2, after.get(2).withState(EndpointState.DRAINING));

    assertThat(check(ready(4), after, Set.of("web/10.0.0.1:80", "web/10.0.0.2:80", "web/10.0.0.3:80"))).isEmpty();
  }
}
