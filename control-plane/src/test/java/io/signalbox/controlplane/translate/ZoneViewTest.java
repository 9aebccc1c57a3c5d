package io.signalbox.controlplane.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.model.HashKeySource;
import io.signalbox.model.ZonePreference;
import io.signalbox.validation.DrainingAs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a zone's clients are sent of a {@code zonePreference: SAME_ZONE} cluster. */
class ZoneViewTest {

  private static EndpointSpec at(String address, String zone, int weight, int priority, EndpointState state) {
    return new EndpointSpec(address, 8080, zone, weight, priority, state, "file:/test");
  }

  private static final List<EndpointSpec> THREE_ZONES = List.of(
      at("10.0.0.1", "a", 1, 0, EndpointState.READY), at("10.0.0.2", "a", 2, 0, EndpointState.READY),
      at("10.0.0.3", "b", 1, 0, EndpointState.READY), at("10.0.0.4", "b", 1, 0, EndpointState.READY),
      at("10.0.0.5", "c", 1, 0, EndpointState.READY));

  private static ClusterLoadAssignment translate(List<EndpointSpec> endpoints, ZonePreference preference, int min) {
    return AssignmentTranslator.toAssignment("web", new AssignmentTranslator.Input(endpoints, null,
        AssignmentTranslator.Localities.PER_ZONE, HashKeySource.ADDRESS, preference, min));
  }

  /** Each locality as {@code priority zone/sub-zone weight [ports]}. */
  private static List<String> shape(ClusterLoadAssignment cla) {
    return cla.getEndpointsList().stream().map(ZoneViewTest::shape).toList();
  }

  private static String shape(LocalityLbEndpoints l) {
    return l.getPriority() + " " + l.getLocality().getZone() + "/" + l.getLocality().getSubZone() + " "
        + l.getLoadBalancingWeight().getValue() + " " + l.getLbEndpointsList().stream()
            .map(e -> e.getEndpoint().getAddress().getSocketAddress().getAddress()).toList();
  }

  @Test
  void aZonesClientsGetItsEndpointsAtPriorityZeroAndTheOtherZonesAsFailover() {
    ClusterLoadAssignment cla = translate(THREE_ZONES, ZonePreference.SAME_ZONE, 2);

    assertThat(shape(ZoneView.of(cla, "a"))).containsExactly(
        "0 a/ 3 [10.0.0.1, 10.0.0.2]",
        "1 b/priority-1 2 [10.0.0.3, 10.0.0.4]",
        "1 c/priority-1 1 [10.0.0.5]");
    assertThat(shape(ZoneView.of(cla, "b"))).containsExactly(
        "0 b/ 2 [10.0.0.3, 10.0.0.4]",
        "1 a/priority-1 3 [10.0.0.1, 10.0.0.2]",
        "1 c/priority-1 1 [10.0.0.5]");
  }

  @Test
  void aZoneBelowTheMinimumOrOneNoEndpointNamesGetsTheEndpointsUnmovedAndAClientOfNoZoneTheAssignmentItself() {
    ClusterLoadAssignment cla = translate(THREE_ZONES, ZonePreference.SAME_ZONE, 2);

    assertThat(shape(ZoneView.of(cla, "c"))).as("one eligible endpoint, minEligible 2").isEqualTo(shape(cla));
    assertThat(shape(ZoneView.of(cla, "d"))).isEqualTo(shape(cla));
    assertThat(ZoneView.of(cla, "")).isSameAs(cla);
    // What a zone's clients get carries no preference metadata: they have no use for it.
    assertThat(ZoneView.of(cla, "c")).isEqualTo(translate(THREE_ZONES, ZonePreference.NONE, 2));
    assertThat(ZoneView.of(cla, "a").getEndpointsList()).allSatisfy(l -> assertThat(l.getLbEndpointsList())
        .allSatisfy(e -> assertThat(e.hasMetadata()).isFalse()));
  }

  @Test
  void withoutThePreferenceTheAssignmentIsTodaysByteForByte() {
    ClusterLoadAssignment off = translate(THREE_ZONES, ZonePreference.NONE, 2);

    assertThat(off).isEqualTo(AssignmentTranslator.toAssignment("web", THREE_ZONES));
    assertThat(ZoneView.of(off, "a")).isSameAs(off);
    assertThat(translate(THREE_ZONES, ZonePreference.SAME_ZONE, 2).getEndpoints(0).getLbEndpoints(0).getMetadata()
        .getFilterMetadataMap()).containsKey(io.signalbox.validation.ZonePlan.METADATA);
  }

  @Test
  void theClustersOwnPrioritiesKeepTheirOrderWithTheZoneLeadingInEach() {
    List<EndpointSpec> tiers = List.of(
        at("10.0.0.1", "a", 1, 0, EndpointState.READY), at("10.0.0.2", "b", 1, 0, EndpointState.READY),
        at("10.0.1.1", "a", 1, 1, EndpointState.READY), at("10.0.1.2", "b", 1, 1, EndpointState.READY));

    assertThat(shape(ZoneView.of(translate(tiers, ZonePreference.SAME_ZONE, 1), "a"))).containsExactly(
        "0 a/ 1 [10.0.0.1]",
        "1 b/priority-1 1 [10.0.0.2]",
        "2 a/priority-2 1 [10.0.1.1]",
        "3 b/priority-3 1 [10.0.1.2]");
  }

  @Test
  void aHintLendsAnotherZonesEndpointAndSplitsItsLocality() {
    List<EndpointSpec> hinted = List.of(
        THREE_ZONES.get(0).withZoneHints(List.of("a")), THREE_ZONES.get(1).withZoneHints(List.of("a")),
        THREE_ZONES.get(2).withZoneHints(List.of("b")), THREE_ZONES.get(3).withZoneHints(List.of("b", "c")),
        THREE_ZONES.get(4).withZoneHints(List.of("c")));

    assertThat(shape(ZoneView.of(translate(hinted, ZonePreference.SAME_ZONE, 2), "c"))).containsExactly(
        "0 b/ 1 [10.0.0.4]",
        "0 c/ 1 [10.0.0.5]",
        "1 a/priority-1 3 [10.0.0.1, 10.0.0.2]",
        "1 b/priority-1 1 [10.0.0.3]");
  }

  @Test
  void armeriasDrainingVariantAppliesOnTopOfTheZonesView() {
    List<EndpointSpec> drained = List.of(
        at("10.0.0.1", "a", 1, 0, EndpointState.READY), at("10.0.0.2", "a", 1, 0, EndpointState.READY),
        at("10.0.0.3", "a", 1, 0, EndpointState.DRAINING), at("10.0.0.4", "b", 1, 0, EndpointState.READY));

    assertThat(shape(DrainingVariant.of(ZoneView.of(translate(drained, ZonePreference.SAME_ZONE, 2), "a"),
        DrainingAs.OMIT))).containsExactly(
        "0 a/ 2 [10.0.0.1, 10.0.0.2]",
        "1 b/priority-1 1 [10.0.0.4]");
  }
}
