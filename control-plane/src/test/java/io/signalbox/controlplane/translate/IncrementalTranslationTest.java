package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.Translations.endpoint;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.model.LbPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Whatever the previous translation, the result equals a translation from scratch. */
class IncrementalTranslationTest {

  private final XdsTranslator translator = new XdsTranslator();

  @Test
  void aSequenceOfChangesTranslatesExactlyAsFromScratch() {
    Random random = new Random(5);
    Map<String, List<EndpointSpec>> endpoints = new TreeMap<>();
    List<ClusterSpec> declared = new ArrayList<>();
    Translation previous = Translation.empty();
    int reused = 0;
    for (int step = 0; step < 300; step++) {
      String name = "c" + random.nextInt(20);
      switch (random.nextInt(7)) {
        case 0 -> endpoints.put(name, List.of(endpoint("10.0.0." + random.nextInt(5), 80, "a", 1 + random.nextInt(3),
            0, EndpointState.READY)));
        case 1 -> endpoints.remove(name);
        case 2 -> declared.add(random.nextInt(declared.size() + 1), cluster(name, random.nextBoolean()));
        case 3 -> {
          if (!declared.isEmpty()) {
            declared.remove(random.nextInt(declared.size()));
          }
        }
        case 4 -> endpoints.put(name, List.of());
        default -> declared = new ArrayList<>(declared); // equal, new instance
      }
      DesiredState state = new DesiredState("x.yaml", List.of(), List.of(), declared, endpoints);

      Translation next = translator.translate(state, previous);

      assertThat(next.resources()).as("step %d", step).isEqualTo(translator.translate(state).resources());
      for (TranslatedResource r : next.resources()) {
        if (previous.ofType(r.type()).stream().anyMatch(p -> p == r)) {
          reused++;
        }
      }
      previous = next;
    }
    assertThat(reused).as("unchanged resources must be reused").isGreaterThan(1000);
  }

  @Test
  void anEqualListOfDeclaredClustersReusesEveryClusterResource() {
    List<ClusterSpec> declared = List.of(cluster("b", true), cluster("a", false), cluster("a", true));
    DesiredState one = new DesiredState("x.yaml", List.of(), List.of(), declared,
        Map.of("z", List.of(endpoint("10.0.0.1", 80, "a", 1, 0, EndpointState.READY))));
    Translation first = translator.translate(one);

    Translation second = translator.translate(new DesiredState("x.yaml", List.of(), List.of(),
        new ArrayList<>(declared), one.endpoints()), first);

    assertThat(second.ofType(XdsType.CLUSTER)).extracting(TranslatedResource::name).containsExactly("a", "b", "z");
    for (int i = 0; i < 3; i++) {
      assertThat(second.ofType(XdsType.CLUSTER).get(i)).isSameAs(first.ofType(XdsType.CLUSTER).get(i));
    }
    assertThat(Translations.cluster(second, "a").getLbPolicy().name()).as("the first declaration wins")
        .isEqualTo("ROUND_ROBIN");
  }

  private static ClusterSpec cluster(String name, boolean maglev) {
    return ClusterSpecBuilder.cluster(name).lbPolicy(maglev ? LbPolicy.MAGLEV : LbPolicy.ROUND_ROBIN).build();
  }

  @Test
  void anEqualNewListOfClustersIsKeptSoTheNextEpochSeesItByIdentity() {
    Map<String, List<EndpointSpec>> endpoints = Map.of("a", List.of(endpoint("10.0.0.1", 80, "a", 1, 0,
        EndpointState.READY)));
    List<ClusterSpec> first = List.of(cluster("a", true));
    List<ClusterSpec> equal = List.of(cluster("a", true));
    Translation one = translator.translate(new DesiredState("x.yaml", List.of(), List.of(), first, endpoints));

    Translation two = translator.translate(new DesiredState("x.yaml", List.of(), List.of(), equal, endpoints), one);

    assertThat(two.declared().source()).isSameAs(equal);
    assertThat(two.ofType(XdsType.CLUSTER).get(0)).as("the cluster is reused")
        .isSameAs(one.ofType(XdsType.CLUSTER).get(0));
  }
}
