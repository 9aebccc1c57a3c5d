package io.signalbox.controlplane.views;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.TypeResources;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.NackStatus;
import io.signalbox.controlplane.xds.TypeStatus;
import io.signalbox.model.EndpointSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongFunction;

/**
 * What one client holds, for {@code GET /api/v1/clients/{id}/config}: per type, what it was sent
 * and ACKed (or NACKed), the resources of the epoch it ACKed, and how they differ from what the
 * current epoch gives it.
 *
 * <p>Built from the fleet's client rows, which every replica reads from the store, and from the
 * epoch log, so every replica gives the same answer. Which names each stream subscribes to is
 * stored with its rows (as its requests said: the whole type, or these names). For rows written
 * before that was stored, they are derived: LDS and CDS are the whole type, RDS the names the
 * client's ACKed listeners reference, EDS those its ACKed clusters reference.
 */
public record ClientConfig(
    String nodeId,
    String nodeCluster,
    String userAgent,
    String replicaId,
    long streamId,
    boolean delta,
    long currentEpoch,
    Map<String, TypeConfig> types,
    List<Stream> streams) {

  /**
   * One ADS stream of the node: grpc-go opens one per xDS target under one node id, a reconnect or
   * a second replica adds more. {@code types} is each type's subscription, as the stream asked.
   */
  record Stream(long streamId, String replicaId, boolean delta, java.time.Instant connectedAt,
      Map<String, Subscribed> types) {}

  /** What a stream asked for of one type: the whole type, and the names it asks for by name. */
  record Subscribed(boolean wildcard, List<String> names) {}

  /**
   * @param type {@code CDS}, {@code EDS}, {@code LDS} or {@code RDS}
   * @param resources what the ACKed epoch gives this client, in name order; null when that epoch is
   *     no longer stored ({@code unavailable} says so)
   * @param diff from what it holds to what the current epoch gives it; null when either is unknown
   * @param wildcard whether the stream subscribes to the whole type
   * @param subscribed the names it subscribes to by name, in name order, as its requests said
   */
  record TypeConfig(
      String type,
      String sentVersion,
      long sentEpoch,
      String ackedVersion,
      long ackedEpoch,
      Nack nack,
      Map<String, String> refusing,
      List<Held> resources,
      String unavailable,
      Diff diff,
      boolean wildcard,
      List<String> subscribed) {}

  /** The type's most recent NACK; {@code standing} while it is newer than what the client ACKed. */
  record Nack(long epoch, String message, Instant at, boolean standing) {}

  /** One resource: its content version and the epoch in which that content first appeared. */
  record Held(String name, String version, long epoch) {}

  /**
   * Names the current epoch adds, removes or changes for this client, and for EDS each endpoint
   * field that changed ({@code state} included).
   */
  record Diff(long toEpoch, boolean upToDate, List<String> added, List<String> removed, List<Changed> changed) {}

  /** @param fields endpoint field changes, {@code 127.0.0.1:50051 weight 1 -> 5}; empty for other types */
  record Changed(String name, String heldVersion, String currentVersion, List<String> fields) {}

  /** The short names an operator types, in push order. */
  static final Map<XdsType, String> SHORT = Map.of(XdsType.CLUSTER, "CDS", XdsType.ENDPOINT, "EDS",
      XdsType.LISTENER, "LDS", XdsType.ROUTE, "RDS");

  /** {@code EDS}, {@code ENDPOINT} or a type URL, any case; null if none of them. */
  public static XdsType parseType(String raw) {
    for (XdsType t : XdsType.ORDERED) {
      if (t.typeUrl().equals(raw) || SHORT.get(t).equalsIgnoreCase(raw) || t.name().equalsIgnoreCase(raw)) {
        return t;
      }
    }
    return null;
  }

  /**
   * @param epochs the stored snapshot of an epoch, or null if it is not stored (pruned)
   * @param current the epoch served now, or null before the first
   * @param only the one type to show, or null for all the client has
   */
  /**
   * @param thisReplica this process's replica id: a stream it holds itself carries none of its own
   * @param node every stream of the node, {@code client} (the one detailed) among them
   */
  public static ClientConfig of(ClientStatus client, List<ClientStatus> node, LongFunction<Snapshot> epochs,
      Snapshot current, XdsType only, String thisReplica) {
    Map<String, TypeConfig> types = new LinkedHashMap<>();
    for (XdsType type : XdsType.ORDERED) {
      TypeStatus t = client.types().get(type.typeUrl());
      if (t == null || only != null && only != type) {
        continue;
      }
      types.put(type.typeUrl(), type(type, t, client, epochs, current));
    }
    // "replica  stream 1" named no replica for this process's own streams (issue 42).
    String replica = client.replicaId().isEmpty() ? thisReplica : client.replicaId();
    List<Stream> streams = new ArrayList<>();
    for (ClientStatus s : node) {
      Map<String, Subscribed> subscribed = new LinkedHashMap<>();
      for (XdsType type : XdsType.ORDERED) {
        TypeStatus t = s.types().get(type.typeUrl());
        if (t != null) {
          subscribed.put(SHORT.get(type), new Subscribed(t.wildcard(), List.copyOf(new TreeSet<>(t.names()))));
        }
      }
      streams.add(new Stream(s.streamId(), s.replicaId().isEmpty() ? thisReplica : s.replicaId(), s.delta(),
          s.connectedAt(), subscribed));
    }
    return new ClientConfig(client.nodeId(), client.nodeCluster(), client.userAgent(), replica,
        client.streamId(), client.delta(), current == null ? 0 : current.epoch(), types, List.copyOf(streams));
  }

  private static TypeConfig type(XdsType type, TypeStatus t, ClientStatus client, LongFunction<Snapshot> epochs,
      Snapshot current) {
    NackStatus n = t.nack();
    Nack nack = n == null ? null : new Nack(n.epoch(), n.message(), n.at(), n.epoch() > t.ackedEpoch());
    Snapshot acked = t.ackedEpoch() <= 0 ? null : epochs.apply(t.ackedEpoch());
    List<Held> resources = null;
    String unavailable = null;
    Map<String, XdsResource> held = null;
    if (t.ackedEpoch() <= 0) {
      resources = List.of();
      held = Map.of();
    } else if (acked == null) {
      unavailable = "epoch " + t.ackedEpoch() + " is no longer stored";
    } else {
      held = given(type, client, acked, at -> epochs.apply(at));
      resources = new ArrayList<>();
      for (XdsResource r : held.values()) {
        resources.add(new Held(r.name(), r.version(), r.changedEpoch()));
      }
    }
    Diff diff = held == null || current == null ? null
        : diff(type, held, given(type, client, current, at -> current), acked, current);
    return new TypeConfig(SHORT.get(type), t.sentVersion(), t.sentEpoch(), t.ackedVersion(), t.ackedEpoch(), nack,
        new TreeMap<>(t.refusing()), resources, unavailable, diff, t.wildcard(), List.copyOf(new TreeSet<>(t.names())));
  }

  /**
   * The resources of {@code type} that {@code snapshot} gives this client, by name: the names its
   * parent type's resources reference, where it subscribes to the parent type, else all.
   *
   * @param parents the snapshot to read the parent type from, given the epoch the client ACKed it at
   */
  private static Map<String, XdsResource> given(XdsType type, ClientStatus client, Snapshot snapshot,
      LongFunction<Snapshot> parents) {
    TypeResources all = snapshot.resources(type);
    Set<String> names = all.byName().keySet();
    XdsType parent = type.fullStateInSotw() ? null : type.parent();
    TypeStatus own = client.types().get(type.typeUrl());
    TypeStatus parentStatus = parent == null ? null : client.types().get(parent.typeUrl());
    if (own != null && !own.wildcard() && !own.names().isEmpty()) {
      // What it asked for, as stored.
      names = own.names();
    } else if (own != null && own.wildcard()) {
      names = all.byName().keySet();
    } else if (parentStatus != null) {
      Snapshot parentSnapshot = parentStatus.ackedEpoch() <= 0 ? null : parents.apply(parentStatus.ackedEpoch());
      names = new TreeSet<>();
      if (parentSnapshot != null) {
        for (XdsResource p : parentSnapshot.resources(parent).byName().values()) {
          names.addAll(p.references());
        }
      }
    }
    Map<String, XdsResource> out = new TreeMap<>();
    for (String name : names) {
      XdsResource r = all.get(name);
      if (r != null) {
        out.put(name, r);
      }
    }
    return out;
  }

  private static Diff diff(XdsType type, Map<String, XdsResource> held, Map<String, XdsResource> now,
      Snapshot heldSnapshot, Snapshot current) {
    List<String> added = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    List<Changed> changed = new ArrayList<>();
    for (XdsResource r : now.values()) {
      XdsResource was = held.get(r.name());
      if (was == null) {
        added.add(r.name());
      } else if (!was.version().equals(r.version())) {
        List<String> fields = new ArrayList<>();
        if (type == XdsType.ENDPOINT && heldSnapshot != null) {
          for (EndpointFieldChange f : EndpointFieldChange.between(type + "/" + r.name(),
              heldSnapshot.endpoints().getOrDefault(r.name(), List.<EndpointSpec>of()),
              current.endpoints().getOrDefault(r.name(), List.of()))) {
            fields.add(f.text());
          }
          endpointsCameOrWent(fields, heldSnapshot.endpoints().getOrDefault(r.name(), List.of()),
              current.endpoints().getOrDefault(r.name(), List.of()));
        }
        ResourceFieldChange.between(type, was, r).forEach(f -> fields.add(f.text()));
        changed.add(new Changed(r.name(), was.version(), r.version(), fields));
      }
    }
    for (String name : held.keySet()) {
      if (!now.containsKey(name)) {
        removed.add(name);
      }
    }
    return new Diff(current.epoch(), added.isEmpty() && removed.isEmpty() && changed.isEmpty(), added, removed,
        changed);
  }

  /** {@code 127.0.0.1:50052 added} and {@code ... removed}: the rest of an endpoint list's difference. */
  private static void endpointsCameOrWent(List<String> fields, List<EndpointSpec> before, List<EndpointSpec> after) {
    Set<String> was = new TreeSet<>();
    before.forEach(e -> was.add(e.key()));
    Set<String> is = new TreeSet<>();
    after.forEach(e -> is.add(e.key()));
    for (EndpointSpec e : after) {
      if (!was.contains(e.key())) {
        fields.add(e.key() + " added (" + e.state() + ", weight " + e.weight() + ")");
      }
    }
    for (EndpointSpec e : before) {
      if (!is.contains(e.key())) {
        fields.add(e.key() + " removed");
      }
    }
  }
}
