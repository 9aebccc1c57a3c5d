package io.signalbox.controlplane.fleet;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.proto.v1.Provenance;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Snapshots of a single STATIC cluster whose connect timeout changes from epoch to epoch. */
final class Clusters {

  static final String CDS = XdsType.CLUSTER.typeUrl();

  private final SnapshotBuilder builder = new SnapshotBuilder();
  private Snapshot last;

  /** The next epoch: cluster {@code name} with a connect timeout of {@code seconds}. */
  Snapshot next(String name, int seconds) {
    Cluster cluster = Cluster.newBuilder().setName(name).setType(Cluster.DiscoveryType.STATIC)
        .setConnectTimeout(com.google.protobuf.Duration.newBuilder().setSeconds(seconds)).build();
    long epoch = last == null ? 1 : last.epoch() + 1;
    last = builder.candidate(List.of(new TranslatedResource(XdsType.CLUSTER, name, cluster, Set.of())), Map.of(), last,
        Provenance.newBuilder().setCause("test").build()).seal(epoch, Instant.EPOCH);
    return last;
  }
}
