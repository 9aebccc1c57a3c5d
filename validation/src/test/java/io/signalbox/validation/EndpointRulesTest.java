package io.signalbox.validation;

import static io.signalbox.validation.States.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointRulesTest {

  private static EndpointSpec at(String address, int port, int weight, int priority, EndpointState state) {
    return new EndpointSpec(address, port, "a", weight, priority, state, FILE);
  }

  @Test
  void acceptsIpv4Ipv6AndDnsNames() {
    assertThat(rendered(withEndpoints(List.of(
            endpoint("10.0.0.1", 8080), endpoint("fd00::1", 8080), endpoint("greeter.default.svc.cluster.local", 50051)))))
        .isEmpty();
  }

  @Test
  void rejectsBadAddressPortAndWeight() {
    assertThat(rendered(withEndpoints(List.of(
            endpoint("10.0.0.1", 8080),
            endpoint("10.0.0.1", 70000),
            at("not an address", 0, 0, 0, EndpointState.READY),
            at("10.0.0.256", 80, 10001, 0, EndpointState.READY)))))
        .containsExactly(
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[1] (10.0.0.1:70000): port: must be <= 65535, was 70000 [range]",
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[2] (not an address:0): address: "
                + "must be an IPv4 address, IPv6 address or DNS name, was 'not an address' [address]",
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[2] (not an address:0): port: must be >= 1, was 0 [range]",
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[2] (not an address:0): weight: must be >= 1, was 0 [range]",
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[3] (10.0.0.256:80): address: "
                + "must be an IPv4 address, IPv6 address or DNS name, was '10.0.0.256' [address]",
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[3] (10.0.0.256:80): weight: must be <= 10000, was 10001 [range]");
  }

  @Test
  void rejectsMissingAddress() {
    assertThat(rendered(withEndpoints(List.of(endpoint("10.0.0.1", 80), endpoint(null, 80)))))
        .containsExactly("file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[1] (null:80): address: is required [required]");
  }

  @Test
  void rejectsDuplicateEndpointNamingBothIndexes() {
    assertThat(rendered(withEndpoints(List.of(
            endpoint("10.0.0.1", 8080), endpoint("10.0.0.2", 8080), endpoint("10.0.0.1", 8080), endpoint("FD00::1", 80), endpoint("fd00::1", 80)))))
        .containsExactly(
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[2] (10.0.0.1:8080): duplicate endpoint 10.0.0.1:8080 (also at [0]) [duplicate.endpoint]",
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[4] ([fd00::1]:80): duplicate endpoint [fd00::1]:80 (also at [3]) [duplicate.endpoint]");
  }

  @Test
  void rejectsPriorityGapNamingTheMissingLevel() {
    assertThat(rendered(withEndpoints(List.of(
            endpoint("10.0.0.1", 80), at("10.0.0.2", 80, 1, 2, EndpointState.READY)))))
        .containsExactly(
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter': priority: priorities must be contiguous from 0, missing 1 (found 0, 2) [priority.contiguous]");
  }

  @Test
  void rejectsPriorityOutOfRange() {
    assertThat(rendered(withEndpoints(List.of(endpoint("10.0.0.1", 80), at("10.0.0.2", 80, 1, 128, EndpointState.READY)))))
        .containsExactly("file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[1] (10.0.0.2:80): priority: must be <= 127, was 128 [range]");
  }

  @Test
  void warnsWhenEligibleEndpointsFallBelowMinEligible() {
    DesiredState state = withEndpoints(List.of(
        at("10.0.0.1", 80, 1, 0, EndpointState.DRAINING), at("10.0.0.2", 80, 1, 0, EndpointState.WARMING)));

    ValidationResult result = new DesiredStateValidator().validate(state);

    assertThat(result.isValid()).isTrue();
    assertThat(result.warnings()).map(Violation::toString)
        .containsExactly(
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter': has 0 eligible (READY/DEGRADED) endpoint(s), "
                + "minEligible is 1 [capacity.min-eligible] (warning)");
  }

  @Test
  void usesTheDeclaredMinEligible() {
    ClusterSpec needsTwo = ClusterSpec.named("greeter").with(new ClusterSpec.Guards(2, null, null));
    DesiredState state = valid(needsTwo)
        .withEndpoints("greeter", List.of(endpoint("10.0.0.1", 80), at("10.0.0.2", 80, 1, 0, EndpointState.DEGRADED)));

    assertThat(rendered(state)).isEmpty();
    assertThat(rendered(state.withEndpoints("greeter", List.of(endpoint("10.0.0.1", 80)))))
        .containsExactly(
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter': has 1 eligible (READY/DEGRADED) endpoint(s), "
                + "minEligible is 2 [capacity.min-eligible] (warning)");
  }

  @Test
  void countsOnlyReadyAndDegradedAsEligible() {
    List<EndpointSpec> endpoints = new java.util.ArrayList<>();
    for (EndpointState state : EndpointState.values()) {
      endpoints.add(at("10.0.0." + (state.ordinal() + 1), 80, 1, 0, state));
    }
    endpoints.add(null);

    assertThat(Capacity.eligibleCount(endpoints)).isEqualTo(2);
    assertThat(Capacity.eligibleCount(null)).isZero();
  }

  @Test
  void theWeightRangeIsOneRuleForEveryInput() {
    assertThat(EndpointRules.weightProblem(1)).isEmpty();
    assertThat(EndpointRules.weightProblem(10_000)).isEmpty();
    assertThat(EndpointRules.weightProblem(0)).contains("weight must be an integer from 1 to 10000, was 0");
    assertThat(EndpointRules.weightProblem(10_001)).contains("weight must be an integer from 1 to 10000, was 10001");
    assertThat(EndpointRules.weightProblem(4_294_967_297L))
        .contains("weight must be an integer from 1 to 10000, was 4294967297");
  }

  @Test
  void refusesAHashKeyTwiceInAClusterAndOneTooLongToHash() {
    assertThat(rendered(withEndpoints(List.of(
            endpoint("10.0.0.1", 80).withHashKey("g-1"),
            endpoint("10.0.0.2", 80).withHashKey("g-1"),
            endpoint("10.0.0.3", 80).withHashKey("k".repeat(257)),
            endpoint("10.0.0.4", 80),
            at("10.0.0.5", 80, 1, 0, EndpointState.DRAINING).withHashKey("g-1")))))
        .containsExactly(
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[1] (10.0.0.2:80): hashKey: "
                + "duplicate hash key 'g-1' (also at [0]) [endpoint.hash-key]",
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[2] (10.0.0.3:80): hashKey: "
                + "must be at most 256 characters, was 257 [endpoint.hash-key]");
  }

  @Test
  void refusesAHostnameThatIsNoDnsName() {
    assertThat(rendered(withEndpoints(List.of(
            endpoint("10.0.0.1", 80).withHostname("web-0.web.default.svc.cluster.local"),
            endpoint("10.0.0.2", 80).withHostname("web_1")))))
        .containsExactly("file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[1] (10.0.0.2:80): hostname: "
            + "must be a DNS name, was 'web_1' [endpoint.hostname]");
  }

  @Test
  void refusesAnAdditionalAddressThatIsNoIpOrIsAnotherEndpoints() {
    assertThat(rendered(withEndpoints(List.of(
            endpoint("10.0.0.1", 80).withAdditionalAddresses(List.of("fd00::1")),
            endpoint("fd00::1", 80),
            endpoint("10.0.0.3", 80).withAdditionalAddresses(List.of("web.example"))))))
        .containsExactly(
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[1] ([fd00::1]:80): "
                + "duplicate endpoint [fd00::1]:80 (also at [0]) [duplicate.endpoint]",
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[2] (10.0.0.3:80): additionalAddresses: "
                + "must be IPv4 or IPv6 addresses, was 'web.example' [address]");
  }

  @Test
  void refusesAnAdditionalAddressThatIsAnotherEndpointsAdditionalAddressOrLaterAddress() {
    assertThat(rendered(withEndpoints(List.of(
            endpoint("10.0.0.1", 80).withAdditionalAddresses(List.of("fd00::1", "10.0.0.9")),
            endpoint("10.0.0.2", 80).withAdditionalAddresses(List.of("fd00::1")),
            endpoint("10.0.0.9", 80),
            endpoint("10.0.0.4", 80).withAdditionalAddresses(List.of("fd00::4", "FD00::4")),
            // The same address on another port is another endpoint.
            endpoint("10.0.0.5", 81).withAdditionalAddresses(List.of("fd00::1"))))))
        .containsExactly(
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[1] (10.0.0.2:80): "
                + "duplicate endpoint [fd00::1]:80 (an additional address) (also at [0]) [duplicate.endpoint]",
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[2] (10.0.0.9:80): "
                + "duplicate endpoint 10.0.0.9:80 (also at [0]) [duplicate.endpoint]",
            "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[3] (10.0.0.4:80): "
                + "duplicate endpoint [FD00::4]:80 (an additional address) (also at [3]) [duplicate.endpoint]");
  }
}
