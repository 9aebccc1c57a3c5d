package io.signalbox.source.kubernetes;

import static io.signalbox.source.kubernetes.KubernetesFixtures.endpoint;
import static io.signalbox.source.kubernetes.KubernetesFixtures.port;
import static io.signalbox.source.kubernetes.KubernetesFixtures.ready;
import static io.signalbox.source.kubernetes.KubernetesFixtures.service;
import static io.signalbox.source.kubernetes.KubernetesFixtures.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SliceMappingTest {

  private static EndpointSlice withVersion(EndpointSlice slice, String resourceVersion) {
    slice.getMetadata().setResourceVersion(resourceVersion);
    return slice;
  }

  @Test
  void mapsConditionsToLifecycleStates() {
    assertThat(SliceMapping.stateOf(new EndpointConditions(true, true, false))).isEqualTo(EndpointState.READY);
    assertThat(SliceMapping.stateOf(new EndpointConditions(null, null, null))).isEqualTo(EndpointState.READY);
    assertThat(SliceMapping.stateOf(null)).isEqualTo(EndpointState.READY);
    assertThat(SliceMapping.stateOf(new EndpointConditions(false, true, true))).isEqualTo(EndpointState.DRAINING);
    assertThat(SliceMapping.stateOf(new EndpointConditions(false, false, true))).isEqualTo(EndpointState.DRAINING);
    assertThat(SliceMapping.stateOf(new EndpointConditions(false, false, false))).isEqualTo(EndpointState.WARMING);
    assertThat(SliceMapping.stateOf(new EndpointConditions(false, null, null))).isEqualTo(EndpointState.WARMING);
  }

  @Test
  void namesAClusterPerServicePortAndKeepsZoneAndOrigin() {
    Map<String, List<EndpointSpec>> clusters = SliceMapping.clusters(
        List.of(service("default", "greeter", port("grpc", 80), port("admin", 81))),
        List.of(withVersion(slice("default", "greeter-a", "greeter", "grpc", 8080,
                ready("10.0.0.2", "b"), ready("10.0.0.1", "a")), "7"),
            withVersion(slice("default", "greeter-b", "greeter", "admin", 9090, ready("10.0.0.1", "a")), "8")),
        ClusterNameTemplate.DEFAULT);

    assertThat(clusters).isEqualTo(Map.of(
        "default/greeter:grpc", List.of(
            new EndpointSpec("10.0.0.1", 8080, "a", 1, 0, EndpointState.READY, "kubernetes:default/greeter-a@7"),
            new EndpointSpec("10.0.0.2", 8080, "b", 1, 0, EndpointState.READY, "kubernetes:default/greeter-a@7")),
        "default/greeter:admin", List.of(
            new EndpointSpec("10.0.0.1", 9090, "a", 1, 0, EndpointState.READY, "kubernetes:default/greeter-b@8"))));
  }

  private static EndpointSlice annotated(EndpointSlice slice, String capacity) {
    slice.getMetadata().setAnnotations(Map.of(SliceMapping.CAPACITY_ANNOTATION, capacity));
    return slice;
  }

  @Test
  void givesEveryEndpointOfAnAnnotatedSliceItsCapacityAndReportsARefusedOneInTheRulesWords() {
    List<EndpointSlice> slices = List.of(
        withVersion(annotated(slice("default", "greeter-a", "greeter", "grpc", 8080, ready("10.0.0.1", "a")), "250"), "1"),
        withVersion(annotated(slice("default", "greeter-b", "greeter", "grpc", 8080, ready("10.0.0.2", "a")), "lots"),
            "2"),
        withVersion(slice("default", "greeter-c", "greeter", "grpc", 8080, ready("10.0.0.3", "a")), "3"));

    Map<String, List<EndpointSpec>> clusters = SliceMapping.clusters(
        List.of(service("default", "greeter", port("grpc", 80))), slices, ClusterNameTemplate.DEFAULT);

    assertThat(clusters.get("default/greeter:grpc")).extracting(EndpointSpec::capacityRps).containsExactly(250, null, null);
    assertThat(SliceMapping.annotationProblems(slices).stream().map(Object::toString)).containsExactly(
        "kubernetes: EndpointSlice default/greeter-b: signalbox.io/capacity-rps: must be an integer from 1 to 1000000, "
            + "was 'lots'; its endpoints take their cluster's capacity [source.annotation]");
    assertThat(SliceMapping.annotationProblems(List.of(annotated(
        slice("default", "greeter-d", "greeter", "grpc", 8080, ready("10.0.0.4", "a")), "0"))).get(0).message())
        .isEqualTo("must be an integer from 1 to 1000000, was 0; its endpoints take their cluster's capacity");
  }

  @Test
  void namesAnUnnamedPortByTheServicePortNumber() {
    Map<String, List<EndpointSpec>> clusters = SliceMapping.clusters(
        List.of(service("web", "shop", port(null, 80))),
        List.of(withVersion(slice("web", "shop-x", "shop", "", 8080, ready("10.0.0.1", "a")), "3")),
        new ClusterNameTemplate("{service}.{namespace}:{port}"));

    assertThat(clusters).containsOnlyKeys("shop.web:80");
    assertThat(clusters.get("shop.web:80")).extracting(EndpointSpec::key).containsExactly("10.0.0.1:8080");
  }

  @Test
  void keepsTheMostEligibleCopyOfAnEndpointListedByTwoSlices() {
    Map<String, List<EndpointSpec>> clusters = SliceMapping.clusters(
        List.of(service("default", "greeter", port("grpc", 80))),
        List.of(
            withVersion(slice("default", "greeter-a", "greeter", "grpc", 8080,
                endpoint("10.0.0.1", "a", false, false, false),
                endpoint("10.0.0.2", "a", false, true, true)), "1"),
            withVersion(slice("default", "greeter-b", "greeter", "grpc", 8080,
                endpoint("10.0.0.1", "a", false, true, true),
                ready("10.0.0.2", "a")), "2")),
        ClusterNameTemplate.DEFAULT);

    assertThat(clusters.get("default/greeter:grpc")).containsExactly(
        new EndpointSpec("10.0.0.1", 8080, "a", 1, 0, EndpointState.DRAINING, "kubernetes:default/greeter-b@2"),
        new EndpointSpec("10.0.0.2", 8080, "a", 1, 0, EndpointState.READY, "kubernetes:default/greeter-b@2"));
  }

  @Test
  void ignoresSlicesOfUnknownServices() {
    assertThat(SliceMapping.clusters(List.of(service("default", "other", port("grpc", 80))),
        List.of(slice("default", "greeter-a", "greeter", "grpc", 8080, ready("10.0.0.1", "a"))),
        ClusterNameTemplate.DEFAULT)).isEmpty();
  }

  @Test
  void rejectsTemplatesThatWouldMergeServicesOrPorts() {
    assertThatThrownBy(() -> new ClusterNameTemplate("{namespace}/{service}"))
        .hasMessage("clusterName: '{namespace}/{service}' must contain {port}");
    assertThatThrownBy(() -> new ClusterNameTemplate("{svc}:{port}"))
        .hasMessage("clusterName: unknown placeholder '{svc}' in '{svc}:{port}', expected {namespace}, {service} and {port}");
  }

  @Test
  void keepsThePodBehindAnEndpointAsItsTargetRefAndItsHostname() {
    var pod = ready("10.0.0.1", "a");
    pod.setTargetRef(new io.fabric8.kubernetes.api.model.ObjectReferenceBuilder()
        .withKind("Pod").withName("greeter-0").build());
    pod.setHostname("greeter-0");
    Map<String, List<EndpointSpec>> clusters = SliceMapping.clusters(
        List.of(service("default", "greeter", port("grpc", 80))),
        List.of(withVersion(slice("default", "greeter-a", "greeter", "grpc", 8080, pod, ready("10.0.0.2", "a")), "7")),
        ClusterNameTemplate.DEFAULT);

    assertThat(clusters.get("default/greeter:grpc")).extracting(EndpointSpec::targetRef)
        .containsExactly("Pod/default/greeter-0", "");
    assertThat(clusters.get("default/greeter:grpc")).extracting(EndpointSpec::hostname).containsExactly("greeter-0", "");
  }

  private static io.fabric8.kubernetes.api.model.discovery.v1.Endpoint pod(String address, String pod, String hostname) {
    var e = ready(address, "a");
    if (pod != null) {
      e.setTargetRef(new io.fabric8.kubernetes.api.model.ObjectReferenceBuilder().withKind("Pod").withName(pod).build());
    }
    e.setHostname(hostname);
    return e;
  }

  @Test
  void mergesAPodsIpv4AndIpv6EntriesIntoOneEndpointByTargetRefElseHostname() {
    EndpointSlice v4 = withVersion(slice("default", "web-v4", "web", "grpc", 8080,
        pod("10.0.0.1", "web-0", null), pod("10.0.0.2", null, "web-1"), pod("10.0.0.3", null, null)), "7");
    EndpointSlice v6 = withVersion(slice("default", "web-v6", "web", "grpc", 8080,
        pod("fd00::1", "web-0", null), pod("fd00::2", null, "web-1"), pod("fd00::3", null, null)), "8");
    v6.setAddressType("IPv6");

    List<EndpointSpec> endpoints = SliceMapping.clusters(List.of(service("default", "web", port("grpc", 80))),
        List.of(v6, v4), ClusterNameTemplate.DEFAULT).get("default/web:grpc");

    assertThat(endpoints).extracting(EndpointSpec::address, EndpointSpec::additionalAddresses).containsExactly(
        org.assertj.core.groups.Tuple.tuple("10.0.0.1", List.of("fd00::1")),
        org.assertj.core.groups.Tuple.tuple("10.0.0.2", List.of("fd00::2")),
        // Neither a Pod nor a hostname says these are one backend: they stay two.
        org.assertj.core.groups.Tuple.tuple("10.0.0.3", List.of()),
        org.assertj.core.groups.Tuple.tuple("fd00::3", List.of()));
  }
}
