package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.controlplane.translate.Translation;
import io.signalbox.controlplane.translate.XdsTranslator;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.validation.Violation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The Envoy check of a candidate looks at exactly the resources it adds or changes. */
class ResourceCheckTest {

  private final XdsTranslator translator = new XdsTranslator();
  private final SnapshotBuilder builder = new SnapshotBuilder();
  private final Provenance provenance = Provenance.newBuilder().setCause("test").build();
  private final List<String> checked = new ArrayList<>();
  /** Records what it is asked to check; finds a violation in every assignment of cluster "b". */
  private final ResourceCheck recording = (label, message) -> {
    checked.add(label);
    return message instanceof ClusterLoadAssignment a && a.getClusterName().equals("b")
        ? List.of(Violation.error("envoy.test", "", label, "weight of b")) : List.of();
  };

  private static DesiredState state(int weightOfB) {
    Map<String, List<EndpointSpec>> endpoints = new TreeMap<>();
    endpoints.put("a", List.of(endpoint(1)));
    endpoints.put("b", List.of(endpoint(weightOfB)));
    endpoints.put("c", List.of(endpoint(1)));
    return new DesiredState("config.yaml", List.of(), List.of(), List.of(ClusterSpec.named("a")), endpoints);
  }

  private static EndpointSpec endpoint(int weight) {
    return new EndpointSpec("10.0.0.1", 8080, "a", weight, 0, EndpointState.READY, "file:endpoints.yaml");
  }

  @Test
  void aFirstCandidateIsCheckedWholeInPushOrder() {
    Translation t = translator.translate(state(1));
    SnapshotCandidate first = builder.candidate(t.resources(), state(1).endpoints(), null, provenance);

    List<Violation> errors = recording.checkChanged(first);

    assertThat(checked).containsExactly("cluster 'a'", "cluster 'b'", "cluster 'c'",
        "endpoints of cluster 'a'", "endpoints of cluster 'b'", "endpoints of cluster 'c'");
    assertThat(errors).extracting(Violation::toString).hasSize(1).first().asString().contains("weight of b");
  }

  @Test
  void aOneEndpointChangeChecksThatClustersAssignmentAlone() {
    DesiredState before = state(1);
    Translation t1 = translator.translate(before);
    Snapshot parent = builder.candidate(t1.resources(), before.endpoints(), null, provenance).seal(1, Instant.EPOCH);
    DesiredState after = state(5);
    Translation t2 = translator.translate(after, t1);
    SnapshotCandidate next = builder.candidate(t2.resources(), after.endpoints(), parent, provenance);

    List<Violation> errors = recording.checkChanged(next);

    assertThat(checked).containsExactly("endpoints of cluster 'b'");
    assertThat(errors).hasSize(1);
  }
}
