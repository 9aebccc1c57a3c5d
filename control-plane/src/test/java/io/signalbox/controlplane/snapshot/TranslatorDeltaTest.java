package io.signalbox.controlplane.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.translate.Translation;
import io.signalbox.controlplane.translate.XdsTranslator;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.model.RouteMatchSpec;
import io.signalbox.model.RouteSpec;
import io.signalbox.model.VirtualHostSpec;
import io.signalbox.proto.v1.Provenance;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A candidate built from the translator's delta is the candidate a full comparison builds, whatever
 * happened in between (rejected candidates, quarantined lists, endpoint lists appearing empty).
 */
class TranslatorDeltaTest {

  private static final Provenance CAUSE = Provenance.newBuilder().setCause("test").build();
  private final XdsTranslator translator = new XdsTranslator();
  private final SnapshotBuilder builder = new SnapshotBuilder();

  @Test
  void theDeltaBuildsWhatAFullComparisonBuilds() {
    Random random = new Random(9);
    Map<String, List<EndpointSpec>> endpoints = new TreeMap<>();
    List<ClusterSpec> declared = new ArrayList<>(List.of(ClusterSpec.named("c1"), ClusterSpec.named("c3")));
    List<String> routed = new ArrayList<>(List.of("c1"));
    Translation translation = Translation.empty();
    Snapshot viaDelta = null;
    Snapshot viaFull = null;
    int deltasUsed = 0;
    for (int step = 0; step < 300; step++) {
      String name = "c" + random.nextInt(12);
      switch (random.nextInt(8)) {
        case 0, 1 -> endpoints.put(name, List.of(endpoint(random.nextInt(4), 1 + random.nextInt(3))));
        case 2 -> endpoints.remove(name);
        case 3 -> endpoints.put(name, List.of());
        case 4 -> declared.add(ClusterSpec.named(name));
        case 5 -> declared.removeIf(c -> c.name().equals(name));
        case 6 -> routed.add(name);
        default -> endpoints.computeIfPresent(name, (k, v) -> new ArrayList<>(v));
      }
      DesiredState state = state(declared, routed, endpoints);
      translation = translator.translate(state, translation);
      List<TranslatedResource> translated = translation.resources();
      boolean quarantined = random.nextInt(10) == 0;
      if (quarantined) {
        translated = new ArrayList<>(translated); // what Quarantine.apply hands over when it holds something
      }
      if (viaDelta != null && SnapshotBuilder.usableDelta(translated, state.endpoints(), viaDelta) != null) {
        deltasUsed++;
      }
      SnapshotCandidate a = builder.candidate(translated, state.endpoints(), viaDelta, CAUSE);
      SnapshotCandidate b = builder.candidate(new ArrayList<>(translated), new TreeMap<>(state.endpoints()), viaFull,
          CAUSE);

      assertThat(a.contentHash()).as("step %d", step).isEqualTo(b.contentHash());
      for (XdsType t : XdsType.ORDERED) {
        assertThat(a.changed(t)).as("step %d changed %s", step, t).isEqualTo(b.changed(t));
        assertThat(a.removed(t)).as("step %d removed %s", step, t).isEqualTo(b.removed(t));
      }
      if (random.nextInt(6) == 0) {
        continue; // rejected: never sealed, the next candidate builds on the same parent
      }
      long epoch = step + 1;
      viaDelta = a.seal(epoch, Instant.EPOCH);
      viaFull = b.seal(epoch, Instant.EPOCH);
      assertThat(viaDelta.endpoints()).as("step %d", step).isEqualTo(viaFull.endpoints());
      for (XdsType t : XdsType.ORDERED) {
        assertThat(viaDelta.resources(t)).as("step %d %s", step, t).isEqualTo(viaFull.resources(t));
      }
    }
    assertThat(deltasUsed).as("most steps must take the delta").isGreaterThan(150);
  }

  private static EndpointSpec endpoint(int address, int weight) {
    return new EndpointSpec("10.0.0." + address, 80, "a", weight, 0, EndpointState.READY, "file:x");
  }

  private static DesiredState state(List<ClusterSpec> declared, List<String> routed,
      Map<String, List<EndpointSpec>> eps) {
    List<RouteSpec> routes = routed.stream()
        .map(c -> new RouteSpec(new RouteMatchSpec("/" + c, null, null), c, null, null)).toList();
    RouteConfigSpec web = new RouteConfigSpec("web", List.of(new VirtualHostSpec("web", List.of("*"), routes)));
    return new DesiredState("x.yaml", List.of(new ListenerSpec("web", true, null, null, "web")), List.of(web),
        List.copyOf(declared), eps);
  }
}
