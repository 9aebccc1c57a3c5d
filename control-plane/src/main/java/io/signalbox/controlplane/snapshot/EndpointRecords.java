package io.signalbox.controlplane.snapshot;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.EndpointRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Converts the endpoint model to and from its stored form. */
final class EndpointRecords {
  private EndpointRecords() {}

  static EndpointRecord toProto(String cluster, EndpointSpec e) {
    EndpointRecord.Builder b = EndpointRecord.newBuilder();
    if (e.capacityRps() != null) {
      b.setCapacityRps(e.capacityRps());
    }
    return b
        .setCluster(cluster)
        .setAddress(e.address())
        .setPort(e.port())
        .setZone(e.zone())
        .setWeight(e.weight())
        .setPriority(e.priority())
        .setState(io.signalbox.proto.v1.EndpointState.valueOf(e.state().name()))
        .setOrigin(e.origin())
        .setHashKey(e.hashKey())
        .setTargetRef(e.targetRef())
        .setHostname(e.hostname())
        .addAllAdditionalAddresses(e.additionalAddresses())
        .addAllZoneHints(e.zoneHints())
        .build();
  }

  static Map<String, List<EndpointSpec>> fromProto(List<EndpointRecord> records) {
    Map<String, List<EndpointSpec>> out = new TreeMap<>();
    for (EndpointRecord r : records) {
      out.computeIfAbsent(r.getCluster(), k -> new ArrayList<>()).add(new EndpointSpec(
          r.getAddress(), r.getPort(), r.getZone(), r.getWeight(), r.getPriority(),
          EndpointState.valueOf(r.getState().name()), r.getOrigin(), r.hasCapacityRps() ? r.getCapacityRps() : null,
          r.getHashKey(), r.getTargetRef(), r.getHostname(),
          r.getAdditionalAddressesList(), r.getZoneHintsList()));
    }
    return out;
  }
}
