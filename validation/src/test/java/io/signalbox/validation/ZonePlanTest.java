package io.signalbox.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ZonePlanTest {

  private static EndpointSpec at(String address, String zone, EndpointState state, String... hints) {
    return new EndpointSpec(address, 8080, zone, 1, 0, state, "kubernetes:default/web", null, "", "", "", List.of(),
        List.of(hints));
  }

  private static EndpointSpec ready(String address, String zone, String... hints) {
    return at(address, zone, EndpointState.READY, hints);
  }

  @Test
  void goesByEachEndpointsZoneWhenSomeEligibleEndpointHasNoHint() {
    ZonePlan plan = ZonePlan.of(List.of(ready("10.0.0.1", "a", "b"), ready("10.0.0.2", "a"), ready("10.0.0.3", "b")), 1);

    assertThat(plan.byHints()).isFalse();
    assertThat(plan.zones()).containsOnlyKeys("a", "b");
    assertThat(plan.zones().get("a")).isEqualTo(new ZonePlan.Preferred(Set.of("10.0.0.1:8080", "10.0.0.2:8080")));
    assertThat(plan.preferring(ready("10.0.0.1", "a", "b"))).containsExactly("a");
  }

  @Test
  void goesByHintsWhenEveryEligibleEndpointHasOneEvenAcrossZones() {
    // The controller lends zone c an endpoint of zone b: zone c's clients prefer it, zone b's too.
    ZonePlan plan = ZonePlan.of(List.of(ready("10.0.0.1", "a", "a"), ready("10.0.0.2", "b", "b", "c"),
        at("10.0.0.9", "a", EndpointState.WARMING)), 1);

    assertThat(plan.byHints()).isTrue();
    assertThat(plan.zones()).containsOnlyKeys("a", "b", "c");
    assertThat(plan.preferring(ready("10.0.0.2", "b", "b", "c"))).containsExactly("b", "c");
    assertThat(plan.preferring(at("10.0.0.9", "a", EndpointState.WARMING))).isEmpty();
  }

  @Test
  void aZoneWithFewerEligibleEndpointsThanTheMinimumPrefersNoneAndSaysSo() {
    List<EndpointSpec> endpoints = List.of(ready("10.0.0.1", "a"), at("10.0.0.2", "a", EndpointState.DRAINING),
        ready("10.0.0.3", "b"), ready("10.0.0.4", "b"));
    ZonePlan plan = ZonePlan.of(endpoints, 2);

    assertThat(plan.zones().get("a")).isEqualTo(new ZonePlan.TooFew(1, 2));
    assertThat(plan.zones().get("b")).isInstanceOf(ZonePlan.Preferred.class);
    assertThat(plan.preferring(endpoints.get(0))).isEmpty();
    Findings f = new Findings();
    ZonePlan.check("web", endpoints, 2, f);
    assertThat(f.violations()).extracting(Violation::toString).containsExactly(
        "kubernetes:default/web: endpoints of cluster 'web' for zone 'a': has 1 eligible endpoint(s) in the zone, fewer than minEligible 2:"
            + " clients in zone 'a' get no zone preference [zone-preference.too-few] (warning)");
  }

  @Test
  void aMinimumOfZeroStillNeedsOneEligibleEndpoint() {
    assertThat(ZonePlan.of(List.of(at("10.0.0.1", "a", EndpointState.DRAINING)), 0).zones().get("a"))
        .isEqualTo(new ZonePlan.TooFew(0, 1));
  }

  @Test
  void refusesAnEmptyOrRepeatedHint() {
    assertThat(EndpointRules.zoneHintsProblem(List.of("a", "b"))).isEmpty();
    assertThat(EndpointRules.zoneHintsProblem(List.of("a", "a"))).contains("names zone 'a' twice");
    assertThat(EndpointRules.zoneHintsProblem(List.of(" "))).contains("a zone must not be empty, was [ ]");
  }

  @Test
  void theValidatorWarnsOnlyWhileTheClusterAsksForZonePreference() {
    List<EndpointSpec> endpoints = List.of(ready("10.0.0.1", "a"), ready("10.0.0.3", "b"), ready("10.0.0.4", "b"));
    io.signalbox.model.ClusterSpec plain = io.signalbox.model.ClusterSpec.named("web")
        .with(new io.signalbox.model.ClusterSpec.Guards(2, null, null));
    io.signalbox.model.ClusterSpec preferring = plain.with(new io.signalbox.model.ClusterSpec.Locality(null, null, null,
        io.signalbox.model.ZonePreference.SAME_ZONE));
    DesiredStateValidator validator = new DesiredStateValidator();
    java.util.function.Function<io.signalbox.model.ClusterSpec, List<String>> rules = spec -> validator.validate(
        new io.signalbox.model.DesiredState("c.yaml", List.of(), List.of(), List.of(spec), java.util.Map.of("web",
            endpoints))).violations().stream().map(Violation::rule).toList();

    assertThat(rules.apply(plain)).doesNotContain(ZonePlan.RULE_TOO_FEW);
    // Same endpoint list, only the setting changed: the remembered findings must not be reused.
    assertThat(rules.apply(preferring)).containsOnlyOnce(ZonePlan.RULE_TOO_FEW);
    assertThat(rules.apply(plain)).doesNotContain(ZonePlan.RULE_TOO_FEW);
  }
}
