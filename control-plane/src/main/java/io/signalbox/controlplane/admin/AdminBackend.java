package io.signalbox.controlplane.admin;

import io.signalbox.controlplane.telemetry.DrainLoads;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.signalbox.controlplane.config.RestartOnly;
import io.signalbox.controlplane.plan.Planner;
import io.signalbox.controlplane.reconcile.Interventions;
import io.signalbox.controlplane.reconcile.PublishedView;
import io.signalbox.controlplane.replica.ReplicaStatus;
import io.signalbox.controlplane.telemetry.FleetLoad;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.source.registry.RegistrySource;
import io.signalbox.store.SnapshotStore;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

/**
 * What the admin API reads and drives. It reads what was published through {@code view} (immutable
 * values, never the writer's own state) and changes operator intent only through
 * {@code interventions}, whose single thread stores each change before the writer sees it.
 *
 * @param reload re-reads the config file (what {@code POST /api/v1/reload} and SIGHUP do)
 * @param registry the REST registry; null when {@code sources.registry.enabled} is false
 * @param xds the fleet's clients as this replica sees them (all replicas', each with its replicaId)
 * @param replica this process's part among replicas: role, leader, term, the replica list
 * @param pendingRestart the restart-only keys the config file changed since the start
 * @param load the clients' load reports, summed over the fleet ({@link FleetLoad#NONE} without)
 * @param drainLoads what load reports say about draining endpoints ({@link DrainLoads#NONE} without)
 * @param planner what inputs would do ({@code POST /api/v1/plan}); null where the server cannot plan
 */
public record AdminBackend(Supplier<PublishedView> view, Interventions interventions, XdsServer xds,
    SnapshotStore store, Runnable reload, PrometheusMeterRegistry meters, Clock clock, RegistrySource registry,
    Supplier<ReplicaStatus> replica, Supplier<List<RestartOnly.Change>> pendingRestart, FleetLoad load,
    DrainLoads drainLoads, Planner planner) {

  public AdminBackend(Supplier<PublishedView> view, Interventions interventions, XdsServer xds, SnapshotStore store,
      Runnable reload, PrometheusMeterRegistry meters, Clock clock, RegistrySource registry,
      Supplier<ReplicaStatus> replica, Supplier<List<RestartOnly.Change>> pendingRestart) {
    this(view, interventions, xds, store, reload, meters, clock, registry, replica, pendingRestart, FleetLoad.NONE,
        DrainLoads.NONE, null);
  }

  public AdminBackend(Supplier<PublishedView> view, Interventions interventions, XdsServer xds, SnapshotStore store,
      Runnable reload, PrometheusMeterRegistry meters, Clock clock, RegistrySource registry,
      Supplier<ReplicaStatus> replica) {
    this(view, interventions, xds, store, reload, meters, clock, registry, replica, List::of, FleetLoad.NONE,
        DrainLoads.NONE, null);
  }
}
