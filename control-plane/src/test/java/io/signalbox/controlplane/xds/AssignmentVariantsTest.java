package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.TypeResources;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.validation.DrainingAs;
import io.signalbox.validation.ZonePlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The variants built from the parent snapshot's variants (only the changed names mapped again) are
 * exactly those built from scratch, over a seeded run of drains, undrains, additions and removals.
 */
class AssignmentVariantsTest {

  private static final long SEED = 33;

  /**
   * @param flagged per endpoint: DRAINING for a drain shape; preferred by zone {@code a} (said in
   *     the zone preference metadata, as the translation says it) for a zone's shape
   */
  private static ClusterLoadAssignment cla(String name, boolean[] flagged, AssignmentVariants.Shape shape) {
    LocalityLbEndpoints.Builder locality = LocalityLbEndpoints.newBuilder()
        .setLoadBalancingWeight(UInt32Value.of(flagged.length));
    boolean zone = !shape.zone().isEmpty();
    for (int i = 0; i < flagged.length; i++) {
      LbEndpoint.Builder e = LbEndpoint.newBuilder()
          .setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder()
              .setSocketAddress(SocketAddress.newBuilder().setAddress("10.0.0." + (i + 1)).setPortValue(8080))))
          .setHealthStatus(flagged[i] && !zone ? HealthStatus.DRAINING : HealthStatus.HEALTHY)
          .setLoadBalancingWeight(UInt32Value.of(1));
      if (flagged[i] && zone) {
        e.getMetadataBuilder().putFilterMetadata(ZonePlan.METADATA, com.google.protobuf.Struct.newBuilder()
            .putFields("zones", com.google.protobuf.Value.newBuilder().setListValue(com.google.protobuf.ListValue
                .newBuilder().addValues(com.google.protobuf.Value.newBuilder().setStringValue("a"))).build()).build());
      }
      locality.addLbEndpoints(e);
    }
    return ClusterLoadAssignment.newBuilder().setClusterName(name).addEndpoints(locality).build();
  }

  private static Map<String, String> versions(TypeResources resources) {
    Map<String, String> out = new LinkedHashMap<>();
    for (XdsResource r : resources.byName().values()) {
      out.put(r.name(), r.version());
    }
    return out;
  }

  @Test
  void variantsBuiltFromTheParentsEqualVariantsBuiltFromScratch() {
    for (AssignmentVariants.Shape as : List.of(new AssignmentVariants.Shape(DrainingAs.UNHEALTHY, false),
        new AssignmentVariants.Shape(DrainingAs.OMIT, false), new AssignmentVariants.Shape(DrainingAs.DRAINING, false, "a"))) {
      Random random = new Random(SEED);
      SnapshotBuilder builder = new SnapshotBuilder();
      AssignmentVariants incremental = new AssignmentVariants(as);
      Map<String, boolean[]> clusters = new LinkedHashMap<>();
      Snapshot parent = null;
      for (long epoch = 1; epoch <= 60; epoch++) {
        String name = "c" + random.nextInt(12);
        int step = random.nextInt(4);
        if (step == 0) {
          clusters.remove(name);
        } else {
          boolean[] draining = clusters.computeIfAbsent(name, n -> new boolean[1 + random.nextInt(3)]).clone();
          draining[random.nextInt(draining.length)] ^= true;
          clusters.put(name, draining);
        }
        List<TranslatedResource> resources = new ArrayList<>();
        clusters.forEach((n, d) -> resources.add(new TranslatedResource(XdsType.ENDPOINT, n, cla(n, d, as), Set.of())));
        Snapshot s = builder.candidate(resources, Map.of(), parent, Provenance.newBuilder().setCause("test").build())
            .seal(epoch, Instant.EPOCH);
        if (parent != null) {
          // Else the incremental path is never taken.
          assertThat(s.resources(XdsType.ENDPOINT).changedSinceParent()).isNotNull();
        }
        parent = s;

        TypeResources built = incremental.resources(s);
        TypeResources fresh = new AssignmentVariants(as).resources(s);
        assertThat(versions(built)).as("%s, epoch %d", as, epoch).isEqualTo(versions(fresh));
        for (XdsResource r : built.byName().values()) {
          ClusterLoadAssignment sent = r.content(ClusterLoadAssignment.class);
          assertThat(r.version()).isEqualTo(SnapshotBuilder.versionOf(sent));
          assertThat(sent.getEndpointsList()).allSatisfy(l -> assertThat(l.getLbEndpointsList())
              .noneMatch(e -> e.getHealthStatus() == HealthStatus.DRAINING || e.hasMetadata()));
          if (!as.zone().isEmpty()) {
            // Zone a's endpoints lead: priority 0 holds exactly those the source flagged, when any.
            boolean[] flagged = clusters.get(r.name());
            long preferred = IntStream.range(0, flagged.length).filter(i -> flagged[i]).count();
            assertThat(sent.getEndpointsList().stream().filter(l -> l.getPriority() == 0)
                .mapToInt(LocalityLbEndpoints::getLbEndpointsCount).sum())
                .isEqualTo(preferred == 0 ? flagged.length : (int) preferred);
          }
        }
      }
    }
  }
}
