package io.signalbox.controlplane.replica;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.NackStatus;
import io.signalbox.controlplane.xds.TypeStatus;
import io.signalbox.controlplane.xds.Waves;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.store.ClientRecord;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This replica's xDS server, seen with the whole fleet: publishing goes to the local server, while
 * the client list (and what rollout, drain safety and the API decide from it) adds the clients of
 * every other live replica, as they stored them ({@code ClientStatusRecorder}, every 2 s). So SAFE,
 * rollback, drain ACK-gating, canary waves and per-group lag use the fleet-wide view, and
 * {@code GET /api/v1/clients} on any replica lists every client with its {@code replicaId}.
 *
 * <p>Other replicas' clients are read at most every {@code refresh}, on whichever thread asks; a
 * replica whose heartbeat stopped no longer counts, nor do its clients. What a stored row cannot
 * say is filled in conservatively: another replica's client is taken to hold every cluster's
 * assignment (drains wait for it), and belongs to the wave its node cluster alone picks.
 */
public final class FleetXdsServer implements XdsServer {

  private static final Logger log = LoggerFactory.getLogger(FleetXdsServer.class);

  private final XdsServer local;
  private final SnapshotStore store;
  private final String replicaId;
  private final Supplier<Set<String>> otherLiveReplicas;
  private final Waves waves;
  private final Clock clock;
  private final Duration refresh;

  private record Remote(Instant at, List<ClientStatus> clients) {}

  private volatile Remote remote = new Remote(Instant.MIN, List.of());
  private volatile Fleet fleet;

  private record Fleet(List<ClientStatus> localList, Remote remote, List<ClientStatus> all) {}

  public FleetXdsServer(XdsServer local, SnapshotStore store, String replicaId, Supplier<Set<String>> otherLiveReplicas,
      Waves waves, Clock clock, Duration refresh) {
    this.local = local;
    this.store = store;
    this.replicaId = replicaId;
    this.otherLiveReplicas = otherLiveReplicas;
    this.waves = waves;
    this.clock = clock;
    this.refresh = refresh;
  }

  @Override
  public int port() {
    return local.port();
  }

  @Override
  public void publish(Snapshot snapshot) {
    local.publish(snapshot);
  }

  @Override
  public void release(int wave, Snapshot snapshot) {
    local.release(wave, snapshot);
  }

  @Override
  public Snapshot releasedTo(int wave) {
    return local.releasedTo(wave);
  }

  @Override
  public io.signalbox.controlplane.xds.ClientKinds clientKinds() {
    return local.clientKinds();
  }

  @Override
  public Snapshot current() {
    return local.current();
  }

  /** This replica's clients (named as its own) and every other live replica's, by node id. */
  @Override
  public List<ClientStatus> clients() {
    List<ClientStatus> mine = local.clients();
    Remote others = remote();
    Fleet f = fleet;
    // The local list is the same instance until a stream changes: rebuild only when either moved.
    if (f != null && f.localList() == mine && f.remote() == others) {
      return f.all();
    }
    List<ClientStatus> all = new ArrayList<>(mine.size() + others.clients().size());
    mine.forEach(c -> all.add(c.onReplica(replicaId)));
    all.addAll(others.clients());
    all.sort(Comparator.comparing(ClientStatus::nodeId).thenComparing(ClientStatus::replicaId)
        .thenComparingLong(ClientStatus::streamId));
    List<ClientStatus> list = List.copyOf(all);
    fleet = new Fleet(mine, others, list);
    return list;
  }

  @Override
  public List<ClientStatus> holders(XdsType type, String name) {
    List<ClientStatus> out = new ArrayList<>();
    local.holders(type, name).forEach(c -> out.add(c.onReplica(replicaId)));
    for (ClientStatus c : remote().clients()) {
      if (c.types().containsKey(type.typeUrl())) {
        out.add(c);
      }
    }
    return out;
  }

  private Remote remote() {
    Remote r = remote;
    Instant now = clock.instant();
    if (Duration.between(r.at(), now).compareTo(refresh) < 0) {
      return r;
    }
    try {
      Set<String> live = otherLiveReplicas.get();
      List<ClientStatus> clients = live.isEmpty() ? List.of() : toStatuses(store.clients().all(), live);
      r = new Remote(now, clients);
    } catch (StoreUnavailableException e) {
      // Keep the last view: the store is out, and so is every decision that would need a newer one.
      log.debug("could not read other replicas' clients: {}", e.getMessage());
      r = new Remote(now, r.clients());
    }
    remote = r;
    return r;
  }

  /** Rows of one stream, each of one type, into the stream's status. */
  private List<ClientStatus> toStatuses(List<ClientRecord> rows, Set<String> live) {
    Map<String, List<ClientRecord>> byStream = new LinkedHashMap<>();
    for (ClientRecord r : rows) {
      if (r.connected() && live.contains(r.key().replicaId())) {
        byStream.computeIfAbsent(r.key().replicaId() + "\n" + r.key().nodeId() + "\n" + r.key().streamId(),
            k -> new ArrayList<>()).add(r);
      }
    }
    List<ClientStatus> out = new ArrayList<>(byStream.size());
    for (List<ClientRecord> stream : byStream.values()) {
      Map<String, TypeStatus> types = new LinkedHashMap<>();
      long epoch = Long.MAX_VALUE;
      for (ClientRecord r : stream) {
        ClientRecord.Position p = r.position();
        NackStatus nack = r.lastNack() == null ? null : new NackStatus(r.lastNack().epoch(), r.lastNack().epoch(),
            r.lastNack().message(), r.lastNack().at(), Map.of());
        types.put(r.key().typeUrl(), new TypeStatus(p.sentVersion() == null ? "" : p.sentVersion(), p.sentEpoch(),
            p.sentAt(), p.ackedVersion() == null ? "" : p.ackedVersion(), p.ackedEpoch(), p.ackedAt(), p.syncedEpoch(),
            p.wildcard(), p.names().size(), p.names(), nack, r.nackCount(), 0, 0, p.refusing()));
        epoch = Math.min(epoch, p.syncedEpoch());
      }
      ClientRecord first = stream.get(0);
      io.envoyproxy.envoy.config.core.v3.Node node = io.envoyproxy.envoy.config.core.v3.Node.newBuilder()
          .setId(first.key().nodeId()).setCluster(first.nodeCluster()).build();
      out.add(new ClientStatus(first.key().nodeId(), first.nodeCluster(), first.zone(), first.userAgent(), "",
          first.key().streamId(), false, null, waves.name(waves.waveOf(node)), epoch == Long.MAX_VALUE ? 0 : epoch,
          null, types, first.key().replicaId()));
    }
    return out;
  }

  @Override
  public void close() {
    local.close();
  }
}
