package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.model.LbPolicy;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.store.SnapshotStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Epochs appended to a real store as the writer appends them: translated, built on the one before,
 * sealed with the epoch the store allocates. One cluster per entry, its load-balancing policy
 * standing for "the cluster changed" (a new Cluster resource version).
 */
final class StoredEpochs {

  private final SnapshotStore store;
  private final Clock clock;
  private final IncrementalTranslator translator = new IncrementalTranslator();
  private final SnapshotBuilder builder = new SnapshotBuilder();
  private final Map<String, LbPolicy> policies = new TreeMap<>();
  private final Map<String, List<EndpointSpec>> endpoints = new TreeMap<>();
  private Snapshot last;

  StoredEpochs(SnapshotStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  static EndpointSpec endpoint(int port, EndpointState state) {
    return new EndpointSpec("10.0.0.1", port, "a", 1, 0, state, "file:/e.yaml");
  }

  /** Sets {@code cluster}'s policy and endpoints for the next epoch. */
  StoredEpochs cluster(String cluster, LbPolicy policy, EndpointSpec... eps) {
    policies.put(cluster, policy);
    endpoints.put(cluster, List.of(eps));
    return this;
  }

  /** Appends the next epoch with every cluster set so far. */
  Snapshot append() {
    List<ClusterSpec> clusters = new ArrayList<>();
    policies.forEach((name, policy) -> clusters.add(ClusterSpec.named(name).with(ClusterSpec.Balancing.of(policy))));
    DesiredState desired = new DesiredState("test", List.of(), List.of(), clusters, endpoints);
    last = store.append(builder.candidate(translator.translate(desired), desired.endpoints(), last,
        Provenance.newBuilder().setCause("test").build()).sealer(clock));
    return last;
  }

  Snapshot last() {
    return last;
  }
}
