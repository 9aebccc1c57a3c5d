package io.signalbox.controlplane.replica;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.signalbox.controlplane.config.HaSettings;
import io.signalbox.controlplane.reconcile.PublishedView;
import io.signalbox.controlplane.reconcile.Reconciler;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.timeline.SystemAudit;
import io.signalbox.controlplane.xds.Waves;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.store.Fence;
import io.signalbox.store.SnapshotStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * This process's part among replicas (DESIGN "Replicas"). Every {@code serve} on an external
 * PostgreSQL is a replica: it elects a leader on the store's lease, follows the committed epochs
 * while it does not lead, and sees the fleet's clients. With the {@code embedded} or {@code memory}
 * store it is standalone: always leading, no lease, only its own clients.
 */
public final class Replica implements AutoCloseable {

  /** How fresh another replica's clients must be when the fleet view is asked for them. */
  private static final Duration FLEET_REFRESH = Duration.ofSeconds(1);

  private final String replicaId;
  private final XdsServer local;
  private final XdsServer fleet;
  private final SnapshotStore store;
  private final HaSettings ha;
  private final Waves waves;
  private final Clock clock;
  private final boolean replicated;
  private Reconciler reconciler;
  private volatile Role role;
  private Election election;
  private volatile Replication replication;

  private Replica(String replicaId, XdsServer local, SnapshotStore store, HaSettings ha, Waves waves, Clock clock,
      boolean replicated) {
    this.replicaId = replicaId;
    this.local = local;
    this.store = store;
    this.ha = ha;
    this.waves = waves;
    this.clock = clock;
    this.replicated = replicated;
    this.fleet = replicated ? new FleetXdsServer(local, store, replicaId, this::otherLiveReplicas, waves, clock,
        FLEET_REFRESH) : local;
  }

  /** Standalone: the only writer, with only its own clients. */
  public static Replica standalone(String replicaId, XdsServer local, SnapshotStore store, Clock clock) {
    return new Replica(replicaId, local, store, HaSettings.defaults(), Waves.NONE, clock, false);
  }

  /** One of several replicas on {@code store} (an external PostgreSQL). */
  public static Replica replicated(XdsServer local, SnapshotStore store, HaSettings ha, Waves waves, Clock clock) {
    return new Replica(ha.replicaId(), local, store, ha, waves, clock, true);
  }

  public String id() {
    return replicaId;
  }

  /** The xDS server as rollout, drains and the API see it: fleet-wide among replicas. */
  public XdsServer xds() {
    return fleet;
  }

  /** Before {@code reconciler.start}: among replicas it builds nothing until elected. */
  public void attach(Reconciler writer) {
    attach(writer, null);
  }

  /**
   * As {@link #attach(Reconciler)}; among replicas, {@code audit} (if not null) records each time this
   * replica wins or loses the lease: the timeline's leader changes.
   */
  public void attach(Reconciler writer, SystemAudit audit) {
    this.reconciler = writer;
    if (!replicated) {
      role = Role.standalone(store);
      writer.role(role);
      return;
    }
    election = new Election(store.leadership(), ha, new Election.Listener() {
      @Override
      public void elected(Fence lease) {
        role.lead(lease);
        if (audit != null) {
          audit.record(SystemAudit.LEAD, replicaId, "won the leader lease with term " + lease.term());
        }
      }

      @Override
      public void deposed(String why) {
        role.follow(why);
        if (audit != null) {
          audit.record(SystemAudit.STEP_DOWN, replicaId, why);
        }
      }
    });
    Role r = Role.replicated(store, election::fencedOut);
    role = r;
    writer.role(r);
    replication = new Replication(store, writer, r, local, waves, ha, election, clock.instant());
  }

  /** Starts following and campaigning; after the writer started. */
  public void start() {
    if (replicated) {
      replication.start();
      election.start();
    }
  }

  /** Whether this process builds epochs now (always, standalone). */
  public boolean leading() {
    Role r = role;
    return r == null || r.leading();
  }

  /** The other replicas alive now (none, standalone). */
  public Set<String> otherLiveReplicas() {
    Replication r = replication;
    return r == null ? Set.of() : r.otherLiveReplicas();
  }

  /** What readers see: among replicas, a follower shows what the leader computes. */
  public PublishedView view() {
    PublishedView v = reconciler.view();
    Replication r = replication;
    return r == null ? v : r.withLeader(v);
  }

  public ReplicaStatus status() {
    Replication r = replication;
    if (r != null) {
      return r.status();
    }
    Snapshot served = reconciler == null ? null : reconciler.published();
    return new ReplicaStatus(replicaId, "standalone", replicaId, 0, true, List.of(new ReplicaStatus.Replica(
        replicaId, "standalone", served == null ? 0 : served.epoch(), local.clients().size(), clock.instant())));
  }

  /**
   * The replica's series: {@code signalbox_leader} (1 while this process builds epochs; summed over
   * the replicas it is 1 in a healthy control plane, 0 with no leader), {@code signalbox_leader_term},
   * {@code signalbox_replica_caught_up} and {@code signalbox_replicas} (alive, this one included).
   */
  public void bindTo(MeterRegistry meters) {
    Gauge.builder("signalbox_leader", () -> leading() ? 1 : 0)
        .description("1 while this replica leads (builds and appends epochs); always 1 standalone")
        .register(meters);
    Gauge.builder("signalbox_leader_term", () -> status().term())
        .description("the lease term of the leader this replica knows; 0 standalone")
        .register(meters);
    Gauge.builder("signalbox_replica_caught_up", () -> status().caughtUp() ? 1 : 0)
        .description("1 while this replica serves the newest committed epoch")
        .register(meters);
    Gauge.builder("signalbox_replicas", () -> otherLiveReplicas().size() + 1)
        .description("replicas alive by their heartbeats, this one included")
        .register(meters);
  }

  @Override
  public void close() {
    if (election != null) {
      election.close();
    }
    if (replication != null) {
      replication.close();
    }
  }
}
