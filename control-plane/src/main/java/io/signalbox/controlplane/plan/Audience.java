package io.signalbox.controlplane.plan;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.validation.ClientKind;
import io.signalbox.validation.ClientSupportRules;
import io.signalbox.validation.Violation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;

/**
 * Who a change reaches: per changed resource the connected clients that would be sent it (the
 * streams subscribed to it or holding it, the xDS server's own {@code holders}), by node group and
 * rollout wave; and what the client support table says those clients' kinds would do with it. Pure:
 * the fleet comes in as functions and counts.
 */
final class Audience {

  /** One resource the plan adds, changes or removes. */
  record Change(XdsType type, String name, String change) {
    String resource() {
      return type + "/" + name;
    }
  }

  /** A stream of a node with no {@code node.cluster}, as the epoch pages group it. */
  static final String NO_GROUP = "(none)";

  private Audience() {}

  /** The resources {@code planned} changes relative to the epoch it was built on, in type order. */
  static List<Change> changes(SnapshotCandidate planned, Snapshot served) {
    List<Change> out = new ArrayList<>();
    for (XdsType type : XdsType.ORDERED) {
      for (String name : planned.changed(type)) {
        boolean had = served != null && served.resources(type).get(name) != null;
        out.add(new Change(type, name, had ? "changed" : "added"));
      }
      planned.removed(type).forEach(name -> out.add(new Change(type, name, "removed")));
    }
    return out;
  }

  /** Per change, who holds or subscribes to it now ({@code holders}), counted by group and wave. */
  static List<Plan.Recipients> recipients(List<Change> changes,
      BiFunction<XdsType, String, List<ClientStatus>> holders) {
    List<Plan.Recipients> out = new ArrayList<>();
    for (Change c : changes) {
      Map<String, Integer> groups = new TreeMap<>();
      Map<String, Integer> waves = new TreeMap<>();
      // A node may hold several streams; each receives the resource, and each is a client here as
      // in the clients list.
      List<ClientStatus> clients = holders.apply(c.type(), c.name());
      for (ClientStatus s : clients) {
        groups.merge(s.nodeCluster().isEmpty() ? NO_GROUP : s.nodeCluster(), 1, Integer::sum);
        waves.merge(s.wave(), 1, Integer::sum);
      }
      out.add(new Plan.Recipients(c.resource(), c.change(), clients.size(), groups, waves));
    }
    return out;
  }

  /**
   * The support-table warnings the planned resources draw from the connected clients and the served
   * ones do not: what this change would newly make some client kind refuse or ignore, named by kind
   * and count ({@link ClientSupportRules}).
   */
  static List<String> clientKinds(ClientSupportRules.Served planned, ClientSupportRules.Served served,
      Map<ClientKind, Integer> connected) {
    Set<String> before = new HashSet<>();
    ClientSupportRules.check(served, connected).forEach(v -> before.add(v.toString()));
    return ClientSupportRules.check(planned, connected).stream().map(Violation::toString)
        .filter(line -> !before.contains(line)).toList();
  }
}
