package io.signalbox.controlplane.views;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.TypeResources;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.model.EndpointSpec;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.store.EpochRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One epoch in full for {@code GET /api/v1/epochs/{n}}: its record, what changed since its parent
 * (resources added, removed, changed; endpoint state transitions), what caused it, and how far each
 * node group has got with it.
 */
public record EpochDetail(
    long epoch,
    long parentEpoch,
    java.time.Instant createdAt,
    String contentHash,
    String status,
    String reason,
    String cause,
    Map<String, String> sourceGenerations,
    Diff diff,
    Map<String, Progress> clients) {

  /**
   * Resource names as {@code TYPE/name}.
   *
   * @param fields what changed in each endpoint present in both epochs, per changed EDS resource
   * @param resourceFields each field that changed in a changed cluster, route configuration or listener
   */
  public record Diff(List<String> added, List<String> removed, List<String> changed, List<Transition> endpoints,
      List<EndpointFieldChange> fields, List<ResourceFieldChange> resourceFields) {}

  /** {@code from} is null for a new endpoint, {@code to} null for a removed one. */
  record Transition(String cluster, String endpoint, String from, String to) {}

  /** Per node group: clients that hold this epoch (or later), that NACKed it, and the rest. */
  record Progress(int acked, int nacked, int pending) {}

  public static EpochDetail of(EpochRecord record, Snapshot snapshot, Snapshot parent, List<ClientStatus> clients) {
    Provenance p = snapshot == null ? Provenance.getDefaultInstance() : snapshot.provenance();
    return new EpochDetail(record.epoch(), record.parentEpoch(), record.createdAt(), record.contentHash(),
        record.status().name(), record.reason(), record.cause(), new TreeMap<>(p.getSourceGenerationsMap()),
        snapshot == null ? null : diff(snapshot, parent), progress(record.epoch(), clients));
  }

  /** What changed from {@code parent} (null: nothing) to {@code s}. */
  public static Diff diff(Snapshot s, Snapshot parent) {
    List<String> added = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    List<String> changed = new ArrayList<>();
    List<ResourceFieldChange> resourceFields = new ArrayList<>();
    for (XdsType type : XdsType.ORDERED) {
      TypeResources now = s.resources(type);
      TypeResources before = parent == null ? TypeResources.empty(type) : parent.resources(type);
      for (XdsResource r : now.byName().values()) {
        XdsResource old = before.get(r.name());
        if (old == null) {
          added.add(type + "/" + r.name());
        } else if (!old.version().equals(r.version())) {
          changed.add(type + "/" + r.name());
          resourceFields.addAll(ResourceFieldChange.between(type, old, r));
        }
      }
      before.byName().keySet().stream().filter(n -> now.get(n) == null).forEach(n -> removed.add(type + "/" + n));
    }
    List<Transition> transitions = new ArrayList<>();
    List<EndpointFieldChange> fields = new ArrayList<>();
    Map<String, List<EndpointSpec>> was = parent == null ? Map.of() : parent.endpoints();
    java.util.Set<String> clusters = new java.util.TreeSet<>(s.endpoints().keySet());
    clusters.addAll(was.keySet());
    for (String cluster : clusters) {
      Map<String, EndpointSpec> before = new HashMap<>();
      was.getOrDefault(cluster, List.of()).forEach(e -> before.put(e.key(), e));
      // State changes are the transitions below, already.
      EndpointFieldChange.between(XdsType.ENDPOINT + "/" + cluster, was.getOrDefault(cluster, List.of()),
          s.endpoints().getOrDefault(cluster, List.of())).stream().filter(f -> !f.field().equals("state"))
          .forEach(fields::add);
      for (EndpointSpec e : s.endpoints().getOrDefault(cluster, List.of())) {
        EndpointSpec old = before.remove(e.key());
        if (old == null || old.state() != e.state()) {
          transitions.add(new Transition(cluster, e.key(), old == null ? null : old.state().name(), e.state().name()));
        }
      }
      before.values().forEach(e -> transitions.add(new Transition(cluster, e.key(), e.state().name(), null)));
    }
    return new Diff(added, removed, changed, transitions, fields, resourceFields);
  }

  private static Map<String, Progress> progress(long epoch, List<ClientStatus> clients) {
    Map<String, int[]> counts = new TreeMap<>();
    for (ClientStatus c : clients) {
      int[] n = counts.computeIfAbsent(c.nodeCluster().isEmpty() ? "(none)" : c.nodeCluster(), g -> new int[3]);
      if (c.nackOf(epoch) != null) {
        n[1]++;
      } else if (c.epoch() >= epoch) {
        n[0]++;
      } else {
        n[2]++;
      }
    }
    Map<String, Progress> out = new TreeMap<>();
    counts.forEach((g, n) -> out.put(g, new Progress(n[0], n[1], n[2])));
    return out;
  }
}
