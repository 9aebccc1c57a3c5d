package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.ClusterSpecBuilder.cluster;
import static io.signalbox.controlplane.translate.Translations.endpoint;
import static io.signalbox.model.EndpointState.DRAINING;
import static io.signalbox.model.EndpointState.READY;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.model.RouteMatchSpec;
import io.signalbox.model.RouteSpec;
import io.signalbox.model.VirtualHostSpec;
import io.signalbox.model.WeightedClusterSpec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class XdsTranslatorTest {

  private final XdsTranslator translator = new XdsTranslator();

  /** A small but complete state: both listener kinds, weighted routes, declared and discovered clusters. */
  private static DesiredState sample() {
    return new DesiredState(
        "signalbox.yaml",
        List.of(
            new ListenerSpec("ingress", false, "0.0.0.0", 10000, "web"),
            new ListenerSpec("greeter", true, null, null, "greeter")),
        List.of(
            new RouteConfigSpec(
                "web",
                List.of(
                    new VirtualHostSpec(
                        "web",
                        List.of("*"),
                        List.of(
                            new RouteSpec(
                                new RouteMatchSpec("/", null, null),
                                null,
                                List.of(new WeightedClusterSpec("payments", 90), new WeightedClusterSpec("discovered", 10)),
                                Duration.ofSeconds(5)))))),
            new RouteConfigSpec(
                "greeter",
                List.of(
                    new VirtualHostSpec(
                        "greeter",
                        List.of("*"),
                        List.of(new RouteSpec(new RouteMatchSpec("", null, null), "greeter", null, null)))))),
        List.of(
            cluster("payments").lbPolicy(LbPolicy.LEAST_REQUEST).slowStart(Duration.ofSeconds(30)).maxEjectionPercent(10).build(),
            cluster("greeter").lbPolicy(LbPolicy.ROUND_ROBIN).build()),
        Map.of(
            "greeter",
                List.of(endpoint("10.0.0.1", 50051, "a", 1, 0, READY), endpoint("10.0.0.2", 50051, "b", 1, 0, DRAINING)),
            "discovered", List.of(endpoint("10.0.1.1", 8080, "a", 2, 0, READY)),
            "payments", List.of(endpoint("10.0.2.1", 8080, "a", 1, 0, READY))));
  }

  @Test
  void listsResourcesInPushOrderAndByNameWithinAType() {
    assertThat(translator.translate(sample()).resources())
        .extracting(r -> r.type() + ":" + r.name())
        .containsExactly(
            "CLUSTER:discovered", "CLUSTER:greeter", "CLUSTER:payments",
            "ENDPOINT:discovered", "ENDPOINT:greeter", "ENDPOINT:payments",
            "LISTENER:greeter", "LISTENER:ingress",
            "ROUTE:greeter", "ROUTE:web");
  }

  @Test
  void aClusterKnownOnlyFromItsEndpointsTakesTheDefaults() {
    Translation t = translator.translate(sample());
    Cluster discovered = Translations.cluster(t, "discovered");
    Cluster fromDefaults =
        Translations.cluster(
            translator.translate(
                new DesiredState("x", List.of(), List.of(), List.of(ClusterSpec.named("discovered")), Map.of())),
            "discovered");
    assertThat(discovered).isEqualTo(fromDefaults);
    assertThat(Translations.assignment(t, "discovered").getEndpoints(0).getLbEndpointsCount()).isEqualTo(1);
  }

  @Test
  void mergesDeclaredAndDiscoveredClustersIntoOneSortedListWithoutDuplicates() {
    DesiredState state =
        new DesiredState(
            "x",
            List.of(),
            List.of(),
            List.of(cluster("d").build(), cluster("b").build(), cluster("b").lbPolicy(LbPolicy.RANDOM).build()),
            Map.of(
                "c", List.of(endpoint("10.0.0.3", 1, "", 1, 0, READY)),
                "a", List.of(endpoint("10.0.0.1", 1, "", 1, 0, READY)),
                "d", List.of(endpoint("10.0.0.4", 1, "", 1, 0, READY))));
    Translation t = translator.translate(state);
    assertThat(t.ofType(XdsType.CLUSTER)).extracting(TranslatedResource::name).containsExactly("a", "b", "c", "d");
    assertThat(t.ofType(XdsType.ENDPOINT)).extracting(TranslatedResource::name).containsExactly("a", "b", "c", "d");
    assertThat(Translations.cluster(t, "b").getLbPolicy()).as("first declaration wins").isEqualTo(Cluster.LbPolicy.ROUND_ROBIN);
  }

  @Test
  void aDeclaredClusterOverridesTheDefaultsOfOneWithTheSameEndpointsName() {
    Cluster payments = Translations.cluster(translator.translate(sample()), "payments");
    assertThat(payments.getLbPolicy()).isEqualTo(Cluster.LbPolicy.LEAST_REQUEST);
  }

  @Test
  void everyReferenceNamesAResourceOfTheChildType() {
    Translation t = translator.translate(sample());
    for (TranslatedResource r : t.resources()) {
      XdsType child =
          switch (r.type()) {
            case LISTENER -> XdsType.ROUTE;
            case ROUTE -> XdsType.CLUSTER;
            case CLUSTER -> XdsType.ENDPOINT;
            case ENDPOINT -> null;
          };
      for (String ref : r.references()) {
        assertThat(t.ofType(child)).extracting(TranslatedResource::name).as(r.type() + " " + r.name()).contains(ref);
      }
    }
    assertThat(Translations.resource(t, XdsType.ROUTE, "web").references()).containsExactlyInAnyOrder("payments", "discovered");
  }

  @Test
  void translatingTheSameStateTwiceGivesEqualResourcesInTheSameOrder() {
    List<TranslatedResource> first = new XdsTranslator().translate(sample()).resources();
    List<TranslatedResource> second = new XdsTranslator().translate(sample()).resources();
    assertThat(second).isEqualTo(first);
  }

  @Test
  void equalResourcesSerializeToIdenticalDeterministicBytes() throws IOException {
    List<TranslatedResource> first = new XdsTranslator().translate(sample()).resources();
    List<TranslatedResource> second = new XdsTranslator().translate(sample()).resources();
    assertThat(second).hasSameSizeAs(first);
    for (int i = 0; i < first.size(); i++) {
      assertThat(second.get(i).message()).isNotSameAs(first.get(i).message());
      assertThat(deterministicBytes(second.get(i).message()))
          .as(first.get(i).type() + " " + first.get(i).name())
          .isEqualTo(deterministicBytes(first.get(i).message()));
    }
  }

  private static ByteString deterministicBytes(Message message) throws IOException {
    ByteString.Output out = ByteString.newOutput(message.getSerializedSize());
    CodedOutputStream coded = CodedOutputStream.newInstance(out);
    coded.useDeterministicSerialization();
    message.writeTo(coded);
    coded.flush();
    return out.toByteString();
  }

  @Test
  void reusesTheSameInstancesWhenNothingChanged() {
    Translation first = translator.translate(sample());
    Translation second = translator.translate(sample(), first);
    for (int i = 0; i < first.resources().size(); i++) {
      assertThat(second.resources().get(i)).isSameAs(first.resources().get(i));
    }
  }

  @Test
  void anEndpointChangeRebuildsOnlyThatClustersAssignment() {
    DesiredState before = sample();
    Translation first = translator.translate(before);
    DesiredState after =
        before.withEndpoints(
            "greeter",
            List.of(endpoint("10.0.0.1", 50051, "a", 1, 0, READY), endpoint("10.0.0.2", 50051, "b", 1, 0, READY)));
    Translation second = translator.translate(after, first);

    TranslatedResource changed = Translations.resource(second, XdsType.ENDPOINT, "greeter");
    assertThat(changed).isNotSameAs(Translations.resource(first, XdsType.ENDPOINT, "greeter"));
    assertThat(Translations.assignment(second, "greeter").getEndpoints(1).getLbEndpoints(0).getHealthStatus().name())
        .isEqualTo("HEALTHY");
    for (TranslatedResource r : second.resources()) {
      if (r != changed) {
        assertThat(r).as(r.type() + " " + r.name()).isSameAs(Translations.resource(first, r.type(), r.name()));
      }
    }
  }

  @Test
  void aClusterSpecChangeRebuildsOnlyThatCluster() {
    DesiredState before = sample();
    Translation first = translator.translate(before);
    DesiredState after =
        new DesiredState(
            before.configSource(),
            before.listeners(),
            before.routeConfigs(),
            List.of(before.clusters().get(0), cluster("greeter").lbPolicy(LbPolicy.MAGLEV).build()),
            before.endpoints());
    Translation second = translator.translate(after, first);

    assertThat(Translations.cluster(second, "greeter").getLbPolicy()).isEqualTo(Cluster.LbPolicy.MAGLEV);
    assertThat(Translations.resource(second, XdsType.CLUSTER, "greeter"))
        .isNotSameAs(Translations.resource(first, XdsType.CLUSTER, "greeter"));
    assertThat(Translations.resource(second, XdsType.ENDPOINT, "greeter"))
        .isSameAs(Translations.resource(first, XdsType.ENDPOINT, "greeter"));
    assertThat(Translations.resource(second, XdsType.CLUSTER, "payments"))
        .isSameAs(Translations.resource(first, XdsType.CLUSTER, "payments"));
  }

  @Test
  void aRemovedClusterDisappearsAndIsNotRememberedForLater() {
    Translation first = translator.translate(sample());
    DesiredState without =
        new DesiredState("x", List.of(), List.of(), List.of(), Map.of("greeter", sample().endpointsOf("greeter")));
    Translation second = translator.translate(without, first);
    assertThat(second.resources()).extracting(r -> r.type() + ":" + r.name()).containsExactly("CLUSTER:greeter", "ENDPOINT:greeter");
    Translation third = translator.translate(sample(), second);
    assertThat(Translations.resource(third, XdsType.CLUSTER, "payments"))
        .isNotSameAs(Translations.resource(first, XdsType.CLUSTER, "payments"))
        .isEqualTo(Translations.resource(first, XdsType.CLUSTER, "payments"));
  }

  @Test
  void atTenThousandClustersOneEndpointChangeRebuildsExactlyOneResource() {
    Map<String, List<EndpointSpec>> endpoints = new TreeMap<>();
    for (int i = 0; i < 10_000; i++) {
      endpoints.put(
          "svc-" + i,
          List.of(
              endpoint("10." + (i / 256 % 256) + "." + (i % 256) + ".1", 8080, "a", 1, 0, READY),
              endpoint("10." + (i / 256 % 256) + "." + (i % 256) + ".2", 8080, "b", 1, 0, READY)));
    }
    DesiredState state = new DesiredState("x", List.of(), List.of(), List.of(), endpoints);
    Translation first = translator.translate(state);
    DesiredState changed =
        state.withEndpoints("svc-4242", List.of(state.endpointsOf("svc-4242").get(0).withState(DRAINING)));

    Translation second = translator.translate(changed, first);

    assertThat(second.resources()).hasSize(20_000);
    List<String> rebuilt = new ArrayList<>();
    for (int i = 0; i < second.resources().size(); i++) {
      if (second.resources().get(i) != first.resources().get(i)) {
        rebuilt.add(second.resources().get(i).type() + ":" + second.resources().get(i).name());
      }
    }
    assertThat(rebuilt).containsExactly("ENDPOINT:svc-4242");
  }
}
